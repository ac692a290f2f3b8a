import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { WebhookService } from '../../domain/webhooks/webhook-service.js';
import { Data, NoContent } from '../../schemas/common.js';
import { CREATE_ERRORS, LIST_ERRORS, OWN_READ_ERRORS, OWN_WRITE_ERRORS } from '../../schemas/errors.js';
import {
  CreatedWebhook,
  CreateWebhookBody,
  DeliveryParams,
  Queued,
  RotatedSecret,
  UpdateWebhookBody,
  Webhook,
  WebhookDetail,
  WebhookParams,
} from '../../schemas/webhooks.js';
import { actorOf } from '../plugins/authentication.js';

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
        operationId: 'listWebhooks',
        summary: 'List webhooks',
        description: "The webhooks linked to the calling key; a key never sees another key's webhooks.",
        response: { 200: Data(Type.Array(Webhook)), ...LIST_ERRORS },
      },
    },
    async (request) => ({ data: await webhooks.listWebhooks(actorOf(request)) }),
  );

  app.post(
    '/webhooks',
    {
      schema: {
        tags,
        operationId: 'createWebhook',
        summary: 'Create a webhook',
        description:
          'Creates a webhook linked to the calling key and returns its signing secret, once. The URL must be `https://` and resolve only to public addresses. Events are delivered for changes made through this API on boards the key may see.',
        body: CreateWebhookBody,
        response: { 201: Data(CreatedWebhook), ...CREATE_ERRORS },
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
        operationId: 'getWebhook',
        summary: 'Get a webhook',
        description: 'The webhook with its 25 newest deliveries, newest first.',
        params: WebhookParams,
        response: { 200: Data(WebhookDetail), ...OWN_READ_ERRORS },
      },
    },
    async (request) => ({ data: await webhooks.getWebhook(actorOf(request), request.params.id) }),
  );

  app.patch(
    '/webhooks/:id',
    {
      schema: {
        tags,
        operationId: 'updateWebhook',
        summary: 'Update a webhook',
        description:
          'Changes `url`, `events`, or `active`. A paused webhook (`active: false`) gets no new events; deliveries already queued go out after it resumes.',
        params: WebhookParams,
        body: UpdateWebhookBody,
        response: { 200: Data(Webhook), ...OWN_WRITE_ERRORS },
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
        operationId: 'deleteWebhook',
        summary: 'Delete a webhook',
        description: 'Deletes the webhook with its pending deliveries and its delivery history.',
        params: WebhookParams,
        response: { 204: NoContent, ...OWN_WRITE_ERRORS },
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
        operationId: 'pingWebhook',
        summary: 'Ping a webhook',
        description:
          "Queues a `ping` event to this webhook only, whatever its event filter. Returns the delivery id to look up in the webhook's deliveries.",
        params: WebhookParams,
        response: { 202: Queued, ...OWN_WRITE_ERRORS },
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
        operationId: 'redeliverWebhookDelivery',
        summary: 'Redeliver an event',
        description: 'Queues the event of that delivery again, as a new delivery with a new id.',
        params: DeliveryParams,
        response: { 202: Queued, ...OWN_WRITE_ERRORS },
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
        operationId: 'rotateWebhookSecret',
        summary: 'Rotate the signing secret',
        description:
          'Replaces the signing secret and returns the new one; the old secret stops signing at once.',
        params: WebhookParams,
        response: { 200: RotatedSecret, ...OWN_WRITE_ERRORS },
      },
    },
    async (request) => ({ data: await webhooks.rotateSecret(actorOf(request), request.params.id) }),
  );
};
