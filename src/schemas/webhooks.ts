import { Type } from '@sinclair/typebox';
import { Data, Id, Nullable, StringEnum, Timestamp } from './common.js';
import { DELIVERED_EVENT_TYPES, EventFilter, EventList } from './events.js';

const webhookFields = {
  id: Type.String(),
  url: Type.String({ description: 'Delivery target (normalised).' }),
  events: EventList,
  active: Type.Boolean({ description: 'false while paused.' }),
  createdAt: Timestamp,
};
const webhookExample = {
  id: 'wh_Jk6Ty3RpXs',
  url: 'https://hooks.example.com/laneboard',
  events: ['task.created', 'task.moved'],
  active: true,
  createdAt: '2026-11-21T10:00:00.000Z',
};
export const Webhook = Type.Object(webhookFields, { examples: [webhookExample] });
export const CreatedWebhook = Type.Object(
  {
    ...webhookFields,
    secret: Type.String({ description: 'Signing secret (`whsec_...`). Returned only once.' }),
  },
  { examples: [{ ...webhookExample, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }] },
);
export const Delivery = Type.Object(
  {
    id: Type.String({ description: 'Delivery id; the X-Service-Delivery and webhook-id headers.' }),
    event_id: Type.String(),
    event_type: StringEnum(DELIVERED_EVENT_TYPES),
    status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
    attempts: Type.Integer(),
    response_status: Nullable(Type.Integer()),
    response_body: Nullable(Type.String({ description: 'At most the first 1 KiB of the last response.' })),
    duration_ms: Nullable(Type.Integer()),
    error: Nullable(Type.String()),
    created_at: Timestamp,
    last_attempt_at: Nullable(Timestamp),
    next_attempt_at: Nullable(Timestamp),
  },
  {
    examples: [
      {
        id: 'dlv_Q2hT9xLr0aZb',
        event_id: 'evt_W3nB8vCx1Lq',
        event_type: 'task.moved',
        status: 'delivered',
        attempts: 1,
        response_status: 200,
        response_body: 'ok',
        duration_ms: 84,
        error: null,
        created_at: '2026-11-21T10:00:00.000Z',
        last_attempt_at: '2026-11-21T10:00:00.000Z',
        next_attempt_at: null,
      },
    ],
  },
);
export const WebhookDetail = Type.Object({
  ...webhookFields,
  recent_deliveries: Type.Array(Delivery, { description: 'The newest 25 deliveries, newest first.' }),
});
export const Queued = Data(
  Type.Object({ delivery_id: Type.String() }, { examples: [{ delivery_id: 'dlv_Q2hT9xLr0aZb' }] }),
);
export const RotatedSecret = Data(
  Type.Object(
    { secret: Type.String() },
    { examples: [{ secret: 'whsec_bNr0PqX5Hh1kN5E3vZQ1y8hA3kVnq0XW' }] },
  ),
);

export const WebhookParams = Type.Object({ id: Id('Webhook id') });
export const DeliveryParams = Type.Object({ id: Id('Webhook id'), deliveryId: Id('Delivery id') });

const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'Absolute `https://` URL of a publicly reachable receiver, without user name or password.',
  examples: ['https://hooks.example.com/laneboard'],
});

export const CreateWebhookBody = Type.Object(
  { url: Url, events: EventFilter },
  {
    additionalProperties: false,
    examples: [{ url: 'https://hooks.example.com/laneboard', events: ['task.created', 'task.moved'] }],
  },
);
export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(Url),
    events: Type.Optional(EventFilter),
    active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, examples: [{ active: false }, { events: ['*'] }] },
);
