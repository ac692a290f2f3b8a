import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { PeopleService } from '../../domain/people/people-service.js';
import { actorOfUi } from './account-routes.js';

const IdParams = Type.Object({ id: Type.String() });
const RoleBody = Type.Object({ role: Type.String() }, { additionalProperties: false });

/** Settings > People: the role rules are PeopleService's. */
export const peopleRoutes: FastifyPluginAsyncTypebox<{ people: PeopleService }> = async (app, { people }) => {
  app.get('/people', async (request) => ({ data: await people.listPeople(actorOfUi(request)) }));

  app.patch('/people/:id', { schema: { params: IdParams, body: RoleBody } }, async (request) => ({
    data: await people.changeRole(actorOfUi(request), request.params.id, request.body.role),
  }));

  app.post('/people/:id/deactivate', { schema: { params: IdParams } }, async (request) => ({
    data: await people.deactivate(actorOfUi(request), request.params.id),
  }));

  app.get('/invites', async (request) => ({ data: await people.listInvites(actorOfUi(request)) }));

  app.post('/invites', { schema: { body: RoleBody } }, async (request, reply) =>
    reply.status(201).send({ data: await people.createInvite(actorOfUi(request), request.body.role) }),
  );

  app.delete('/invites/:id', { schema: { params: IdParams } }, async (request, reply) => {
    await people.revokeInvite(actorOfUi(request), request.params.id);
    return reply.status(204).send();
  });
};
