import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { KeyConsole } from '../../domain/people/key-console.js';
import type { WebhookConsole } from '../../domain/people/webhook-console.js';
import type { WebhookService } from '../../domain/webhooks/webhook-service.js';
import { Data, NoContent } from '../../schemas/common.js';
import {
  ApiKey,
  ConsoleWebhook,
  ConsoleWebhookDetail,
  CreatedApiKey,
  CreatedConsoleWebhook,
  QueuedDelivery,
  RevealedKey,
  RevokedKey,
} from '../../schemas/settings.js';
import { RotatedSecret } from '../../schemas/webhooks.js';
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
  app.get('/keys', { schema: { response: { 200: Data(Type.Array(ApiKey)) } } }, async (request) => ({
    data: await keyConsole.list(actorOfUi(request)),
  }));

  app.post(
    '/keys',
    {
      schema: {
        body: Type.Object({ name: Type.String(), ...Access }, { additionalProperties: false }),
        response: { 201: Data(CreatedApiKey) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await keyConsole.create(actorOfUi(request), request.body) }),
  );

  app.post(
    '/keys/:id/reveal',
    {
      schema: {
        params: IdParams,
        body: Type.Object({ password: Type.String() }, { additionalProperties: false }),
        response: { 200: Data(RevealedKey) },
      },
    },
    async (request) => ({
      data: await keyConsole.reveal(actorOfUi(request), request.params.id, request.body.password),
    }),
  );

  app.put(
    '/keys/:id/grants',
    {
      schema: {
        params: IdParams,
        body: Type.Object(Access, { additionalProperties: false }),
        response: { 200: Data(ApiKey) },
      },
    },
    async (request) => ({
      data: await keyConsole.setAccess(actorOfUi(request), request.params.id, request.body),
    }),
  );

  app.delete(
    '/keys/:id',
    { schema: { params: IdParams, response: { 200: Data(RevokedKey) } } },
    async (request) => ({
      data: await keyConsole.revoke(actorOfUi(request), request.params.id),
    }),
  );

  app.get(
    '/event-types',
    { schema: { response: { 200: Data(Type.Array(Type.String())) } } },
    async (request) => ({ data: webhookConsole.eventTypes(actorOfUi(request)) }),
  );

  app.get(
    '/webhooks',
    { schema: { response: { 200: Data(Type.Array(ConsoleWebhook)) } } },
    async (request) => ({ data: await webhookConsole.list(actorOfUi(request)) }),
  );

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
        response: { 201: Data(CreatedConsoleWebhook) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await webhookConsole.create(actorOfUi(request), request.body) }),
  );

  app.get(
    '/webhooks/:id',
    {
      schema: {
        params: IdParams,
        querystring: Type.Object({ status: Type.Optional(Type.String()) }, { additionalProperties: false }),
        response: { 200: Data(ConsoleWebhookDetail) },
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
        response: { 200: Data(ConsoleWebhook) },
      },
    },
    async (request) => ({
      data: await webhookConsole.update(actorOfUi(request), request.params.id, request.body),
    }),
  );

  const queued = { 202: Data(QueuedDelivery) };
  app.post(
    '/webhooks/:id/ping',
    { schema: { params: IdParams, response: queued } },
    async (request, reply) => {
      const { delivery_id } = await webhooks.pingWebhook(actorOfUi(request), request.params.id);
      return reply.status(202).send({ data: { deliveryId: delivery_id } });
    },
  );

  app.post(
    '/webhooks/:id/deliveries/:deliveryId/redeliver',
    { schema: { params: Type.Object({ id: Type.String(), deliveryId: Type.String() }), response: queued } },
    async (request, reply) => {
      const { id, deliveryId } = request.params;
      const { delivery_id } = await webhooks.redeliver(actorOfUi(request), id, deliveryId);
      return reply.status(202).send({ data: { deliveryId: delivery_id } });
    },
  );

  app.post(
    '/webhooks/:id/rotate-secret',
    { schema: { params: IdParams, response: { 200: RotatedSecret } } },
    async (request) => ({
      data: await webhooks.rotateSecret(actorOfUi(request), request.params.id),
    }),
  );

  app.delete(
    '/webhooks/:id',
    { schema: { params: IdParams, response: { 204: NoContent } } },
    async (request, reply) => {
      await webhooks.deleteWebhook(actorOfUi(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
