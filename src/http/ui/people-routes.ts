import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { PeopleService } from '../../domain/people/people-service.js';
import { Data, NoContent } from '../../schemas/common.js';
import { CreatedInvite, Invite, User, UserAnswer } from '../../schemas/people.js';
import { actorOfUi } from './account-routes.js';

const IdParams = Type.Object({ id: Type.String() });
const RoleBody = Type.Object({ role: Type.String() }, { additionalProperties: false });

/** Settings > People: the role rules are PeopleService's. */
export const peopleRoutes: FastifyPluginAsyncTypebox<{ people: PeopleService }> = async (app, { people }) => {
  app.get('/people', { schema: { response: { 200: Data(Type.Array(User)) } } }, async (request) => ({
    data: await people.listPeople(actorOfUi(request)),
  }));

  app.patch(
    '/people/:id',
    { schema: { params: IdParams, body: RoleBody, response: { 200: UserAnswer } } },
    async (request) => ({
      data: await people.changeRole(actorOfUi(request), request.params.id, request.body.role),
    }),
  );

  app.post(
    '/people/:id/deactivate',
    { schema: { params: IdParams, response: { 200: UserAnswer } } },
    async (request) => ({ data: await people.deactivate(actorOfUi(request), request.params.id) }),
  );

  app.get('/invites', { schema: { response: { 200: Data(Type.Array(Invite)) } } }, async (request) => ({
    data: await people.listInvites(actorOfUi(request)),
  }));

  app.post(
    '/invites',
    { schema: { body: RoleBody, response: { 201: Data(CreatedInvite) } } },
    async (request, reply) =>
      reply.status(201).send({ data: await people.createInvite(actorOfUi(request), request.body.role) }),
  );

  app.delete(
    '/invites/:id',
    { schema: { params: IdParams, response: { 204: NoContent } } },
    async (request, reply) => {
      await people.revokeInvite(actorOfUi(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
