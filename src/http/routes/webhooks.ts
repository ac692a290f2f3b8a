import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type TSchema, Type } from '@sinclair/typebox';
import type { WebhookService } from '../../domain/webhooks/webhook-service.js';
import { actorOf } from '../plugins/authentication.js';
import { AUTH_ERRORS, Data, Id, NoContent, Timestamp } from '../schemas/common.js';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const EventList = Type.Array(Type.String(), {
  description: 'Event type names, or exactly ["*"] for every event.',
});

const webhookFields = {
  id: Type.String(),
  url: Type.String({ description: 'Delivery target (normalised).' }),
  events: EventList,
  active: Type.Boolean({ description: 'false while paused.' }),
  createdAt: Timestamp,
};
const Webhook = Type.Object(webhookFields);
const CreatedWebhook = Type.Object({
  ...webhookFields,
  secret: Type.String({ description: 'Signing secret (`whsec_...`). Returned only once.' }),
});
const Delivery = Type.Object({
  id: Type.String({ description: 'Delivery id; the X-Service-Delivery and webhook-id headers.' }),
  event_id: Type.String(),
  event_type: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  attempts: Type.Integer(),
  response_status: Nullable(Type.Integer()),
  response_body: Nullable(Type.String({ description: 'At most the first 1 KiB of the last response.' })),
  duration_ms: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
  created_at: Timestamp,
  last_attempt_at: Nullable(Timestamp),
  next_attempt_at: Nullable(Timestamp),
});
const WebhookDetail = Type.Object({
  ...webhookFields,
  recent_deliveries: Type.Array(Delivery, { description: 'The newest 25 deliveries, newest first.' }),
});
const Queued = Data(Type.Object({ delivery_id: Type.String() }));

const WebhookParams = Type.Object({ id: Id('Webhook id') });
const DeliveryParams = Type.Object({ id: Id('Webhook id'), deliveryId: Id('Delivery id') });
const Url = Type.String({ description: 'https:// URL of a publicly reachable receiver.' });

export const webhookRoutes: FastifyPluginAsyncTypebox<{ webhooks: WebhookService }> = async (
  app,
  { webhooks },
) => {
  const tags = ['Webhooks'];

  app.get(
    '/webhooks',
    {
      schema: {
        tags,
        summary: "List this key's webhooks",
        response: { 200: Data(Type.Array(Webhook)), ...AUTH_ERRORS },
      },
    },
    async (request) => ({ data: await webhooks.listWebhooks(actorOf(request)) }),
  );

  app.post(
    '/webhooks',
    {
      schema: {
        tags,
        summary: 'Create a webhook linked to this key',
        body: Type.Object({ url: Url, events: EventList }, { additionalProperties: false }),
        response: { 201: Data(CreatedWebhook), ...AUTH_ERRORS },
      },
    },
    async (request, reply) => {
      const created = await webhooks.createWebhook(actorOf(request), request.body);
      return reply.status(201).send({ data: created });
    },
  );

  app.get(
    '/webhooks/:id',
    {
      schema: {
        tags,
        summary: 'Webhook detail with its recent deliveries',
        params: WebhookParams,
        response: { 200: Data(WebhookDetail), ...AUTH_ERRORS },
      },
    },
    async (request) => ({ data: await webhooks.getWebhook(actorOf(request), request.params.id) }),
  );

  app.patch(
    '/webhooks/:id',
    {
      schema: {
        tags,
        summary: 'Change url, events, or active (pause/resume)',
        params: WebhookParams,
        body: Type.Object(
          {
            url: Type.Optional(Url),
            events: Type.Optional(EventList),
            active: Type.Optional(Type.Boolean()),
          },
          { additionalProperties: false },
        ),
        response: { 200: Data(Webhook), ...AUTH_ERRORS },
      },
    },
    async (request) => ({
      data: await webhooks.updateWebhook(actorOf(request), request.params.id, request.body),
    }),
  );

  app.delete(
    '/webhooks/:id',
    {
      schema: {
        tags,
        summary: 'Delete a webhook with its pending deliveries and history',
        params: WebhookParams,
        response: { 204: NoContent, ...AUTH_ERRORS },
      },
    },
    async (request, reply) => {
      await webhooks.deleteWebhook(actorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/webhooks/:id/ping',
    {
      schema: {
        tags,
        summary: 'Queue a ping event to this webhook, whatever its event filter',
        params: WebhookParams,
        response: { 202: Queued, ...AUTH_ERRORS },
      },
    },
    async (request, reply) => {
      const queued = await webhooks.pingWebhook(actorOf(request), request.params.id);
      return reply.status(202).send({ data: queued });
    },
  );

  app.post(
    '/webhooks/:id/deliveries/:deliveryId/redeliver',
    {
      schema: {
        tags,
        summary: 'Queue the same event again as a new delivery',
        params: DeliveryParams,
        response: { 202: Queued, ...AUTH_ERRORS },
      },
    },
    async (request, reply) => {
      const { id, deliveryId } = request.params;
      const queued = await webhooks.redeliver(actorOf(request), id, deliveryId);
      return reply.status(202).send({ data: queued });
    },
  );

  app.post(
    '/webhooks/:id/rotate-secret',
    {
      schema: {
        tags,
        summary: 'Replace the signing secret; the old one stops signing at once',
        params: WebhookParams,
        response: { 200: Data(Type.Object({ secret: Type.String() })), ...AUTH_ERRORS },
      },
    },
    async (request) => ({ data: await webhooks.rotateSecret(actorOf(request), request.params.id) }),
  );
};
