import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { KeyConsole } from '../../domain/people/key-console.js';
import type { WebhookConsole } from '../../domain/people/webhook-console.js';
import type { WebhookService } from '../../domain/webhooks/webhook-service.js';
import { actorOfUi } from './account-routes.js';

const IdParams = Type.Object({ id: Type.String() });
const Access = {
  allBoards: Type.Boolean(),
  grants: Type.Array(
    Type.Object(
      {
        boardId: Type.String(),
        permission: Type.Union([Type.Literal('read'), Type.Literal('edit')]),
      },
      { additionalProperties: false },
    ),
    { maxItems: 1000 },
  ),
};

/** Settings > API Keys and Settings > Webhooks. */
export const settingsRoutes: FastifyPluginAsyncTypebox<{
  keyConsole: KeyConsole;
  webhookConsole: WebhookConsole;
  webhooks: WebhookService;
}> = async (app, { keyConsole, webhookConsole, webhooks }) => {
  app.get('/keys', async (request) => ({ data: await keyConsole.list(actorOfUi(request)) }));

  app.post(
    '/keys',
    { schema: { body: Type.Object({ name: Type.String(), ...Access }, { additionalProperties: false }) } },
    async (request, reply) =>
      reply.status(201).send({ data: await keyConsole.create(actorOfUi(request), request.body) }),
  );

  app.post(
    '/keys/:id/reveal',
    {
      schema: {
        params: IdParams,
        body: Type.Object({ password: Type.String() }, { additionalProperties: false }),
      },
    },
    async (request) => ({
      data: await keyConsole.reveal(actorOfUi(request), request.params.id, request.body.password),
    }),
  );

  app.put(
    '/keys/:id/grants',
    { schema: { params: IdParams, body: Type.Object(Access, { additionalProperties: false }) } },
    async (request) => ({
      data: await keyConsole.setAccess(actorOfUi(request), request.params.id, request.body),
    }),
  );

  app.delete('/keys/:id', { schema: { params: IdParams } }, async (request) => ({
    data: await keyConsole.revoke(actorOfUi(request), request.params.id),
  }));

  app.get('/event-types', async (request) => ({ data: webhookConsole.eventTypes(actorOfUi(request)) }));

  app.get('/webhooks', async (request) => ({ data: await webhookConsole.list(actorOfUi(request)) }));

  app.post(
    '/webhooks',
    {
      schema: {
        body: Type.Object(
          {
            url: Type.String(),
            events: Type.Array(Type.String(), { maxItems: 100 }),
            apiKeyId: Type.String(),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      const actor = actorOfUi(request);
      const created = await webhooks.createWebhook(actor, request.body);
      const listed = await webhookConsole.get(actor, created.id, undefined);
      const { deliveries: _none, ...webhook } = listed;
      return reply.status(201).send({ data: { ...webhook, secret: created.secret } });
    },
  );

  app.get(
    '/webhooks/:id',
    {
      schema: {
        params: IdParams,
        querystring: Type.Object({ status: Type.Optional(Type.String()) }, { additionalProperties: false }),
      },
    },
    async (request) => ({
      data: await webhookConsole.get(actorOfUi(request), request.params.id, request.query.status),
    }),
  );

  app.patch(
    '/webhooks/:id',
    {
      schema: {
        params: IdParams,
        body: Type.Object(
          {
            url: Type.Optional(Type.String()),
            events: Type.Optional(Type.Array(Type.String(), { maxItems: 100 })),
            active: Type.Optional(Type.Boolean()),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const actor = actorOfUi(request);
      await webhooks.updateWebhook(actor, request.params.id, request.body);
      const { deliveries: _d, ...webhook } = await webhookConsole.get(actor, request.params.id, undefined);
      return { data: webhook };
    },
  );

  app.post('/webhooks/:id/ping', { schema: { params: IdParams } }, async (request, reply) => {
    const { delivery_id } = await webhooks.pingWebhook(actorOfUi(request), request.params.id);
    return reply.status(202).send({ data: { deliveryId: delivery_id } });
  });

  app.post(
    '/webhooks/:id/deliveries/:deliveryId/redeliver',
    { schema: { params: Type.Object({ id: Type.String(), deliveryId: Type.String() }) } },
    async (request, reply) => {
      const { id, deliveryId } = request.params;
      const { delivery_id } = await webhooks.redeliver(actorOfUi(request), id, deliveryId);
      return reply.status(202).send({ data: { deliveryId: delivery_id } });
    },
  );

  app.post('/webhooks/:id/rotate-secret', { schema: { params: IdParams } }, async (request) => ({
    data: await webhooks.rotateSecret(actorOfUi(request), request.params.id),
  }));

  app.delete('/webhooks/:id', { schema: { params: IdParams } }, async (request, reply) => {
    await webhooks.deleteWebhook(actorOfUi(request), request.params.id);
    return reply.status(204).send();
  });
};
