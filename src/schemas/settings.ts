import { Type } from '@sinclair/typebox';
import { Nullable, StringEnum, Timestamp } from './common.js';
import { PersonRef } from './people.js';
import { Webhook } from './webhooks.js';

/*
 * Settings › API Keys and Settings › Webhooks as the web UI's API answers them (docs/ui-api.md): the
 * routes under /api/ui serialise with these, and the UI takes its types from them (`import type`).
 * camelCase, unlike the external API's deliveries.
 */

export const KeyPermission = StringEnum(['read', 'edit']);

export const KeyGrant = Type.Object({
  boardId: Type.String(),
  boardName: Type.String(),
  permission: KeyPermission,
});

/** An API key as Settings › API Keys lists it. */
export const ApiKey = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String({ description: 'The first characters of the key, to tell keys apart.' }),
  owner: Nullable(PersonRef),
  /** The agent the key acts as, if it belongs to one. */
  agent: Nullable(PersonRef),
  createdAt: Timestamp,
  lastUsedAt: Nullable(Timestamp),
  allBoards: Type.Boolean(),
  grants: Type.Array(KeyGrant),
  webhookCount: Type.Integer(),
  reveals: Type.Array(Type.Object({ at: Timestamp, user: PersonRef })),
});

/** The answer that created a key: the key itself, shown once (it can be revealed again with the password). */
export const CreatedApiKey = Type.Object({ ...ApiKey.properties, key: Type.String() });
export const RevealedKey = Type.Object({ id: Type.String(), key: Type.String() });
export const RevokedKey = Type.Object({
  id: Type.String(),
  revokedAt: Timestamp,
  webhooksRemoved: Type.Integer(),
});

export const DELIVERY_STATUSES = ['delivered', 'pending', 'failed'] as const;
export const DeliveryStatus = StringEnum(DELIVERY_STATUSES);

/** A webhook as Settings › Webhooks shows it: the external API's webhook, with its key and last delivery. */
export const ConsoleWebhook = Type.Object({
  ...Webhook.properties,
  apiKey: Nullable(Type.Object({ id: Type.String(), name: Type.String(), prefix: Type.String() })),
  lastDelivery: Nullable(
    Type.Object({
      id: Type.String(),
      status: DeliveryStatus,
      eventType: Type.String(),
      createdAt: Timestamp,
      responseStatus: Nullable(Type.Integer()),
    }),
  ),
});

export const DeliveryAttempt = Type.Object({
  number: Type.Integer(),
  at: Timestamp,
  responseStatus: Nullable(Type.Integer()),
  responseBody: Nullable(Type.String()),
  durationMs: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
});

/** A delivery with its attempts. */
export const ConsoleDelivery = Type.Object({
  id: Type.String(),
  eventId: Type.String(),
  eventType: Type.String(),
  status: DeliveryStatus,
  createdAt: Timestamp,
  lastAttemptAt: Nullable(Timestamp),
  nextAttemptAt: Nullable(Timestamp),
  attempts: Type.Array(DeliveryAttempt),
  /** The event's board (null for a ping); `name` is null once the board is deleted. */
  board: Nullable(Type.Object({ id: Type.String(), name: Nullable(Type.String()) })),
  /** What the event is about: a task (title null once deleted) or a lane. */
  subject: Type.Union([
    Type.Object({
      type: Type.Literal('task'),
      id: Type.String(),
      shortId: Nullable(Type.String()),
      title: Nullable(Type.String()),
    }),
    Type.Object({ type: Type.Literal('lane'), id: Type.String(), name: Nullable(Type.String()) }),
    Type.Null(),
  ]),
  /** For a redelivery: the delivery it repeats (the event's first delivery to this webhook). */
  repeats: Nullable(Type.String()),
});

export const ConsoleWebhookDetail = Type.Object({
  ...ConsoleWebhook.properties,
  deliveries: Type.Array(ConsoleDelivery),
});

/** The answer that created a webhook: its signing secret, shown once. */
export const CreatedConsoleWebhook = Type.Object({ ...ConsoleWebhook.properties, secret: Type.String() });

/** A ping or redelivery queued. */
export const QueuedDelivery = Type.Object({ deliveryId: Type.String() });
