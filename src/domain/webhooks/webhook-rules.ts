import type { DeliveryWithType } from '../../db/repositories/deliveries.js';
import type { WebhookRow } from '../../db/schema.js';
import { ACTIVITY_TYPES, WEBHOOK_EVENT_TYPES as EVENT_TYPES } from '../activities/activity-types.js';
import type { Actor } from '../actor.js';
import { forbidden, invalid } from '../errors.js';

export interface Webhook {
  id: string;
  url: string;
  events: string[];
  active: boolean;
  createdAt: string;
}

export interface DeliveryView {
  id: string;
  event_id: string;
  event_type: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  response_status: number | null;
  response_body: string | null;
  duration_ms: number | null;
  error: string | null;
  created_at: string;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
}

/**
 * Whose webhooks an actor manages: an API key its own; operators (CLI) and the web UI's owners and
 * admins every key's (`null`). Members manage none.
 */
export function webhookOwnerScope(actor: Actor): string | null {
  switch (actor.kind) {
    case 'api_key':
      return actor.keyId;
    case 'system':
      return null;
    case 'user':
      if (actor.role === 'owner' || actor.role === 'admin') return null;
      throw forbidden('Managing webhooks needs the owner or admin role.');
  }
}

const KNOWN_TYPES: ReadonlySet<string> = new Set(EVENT_TYPES);
/** Asset and reaction events: webhooks receive them through `["*"]` only, so a list may not name them. */
const WILDCARD_ONLY: ReadonlySet<string> = new Set(ACTIVITY_TYPES.filter((type) => !KNOWN_TYPES.has(type)));

/** A non-empty list of known event types (duplicates dropped, order kept), or exactly `["*"]`. */
export function normaliseEventFilter(events: readonly string[]): string[] {
  if (events.length === 0) {
    throw invalid('events', 'must list at least one event type, or be ["*"] for all events.');
  }
  if (events.includes('*')) {
    if (events.length === 1) return ['*'];
    throw invalid('events', 'must be exactly ["*"] to receive all events; do not combine "*" with types.');
  }
  events.forEach((type, index) => {
    if (WILDCARD_ONLY.has(type)) {
      throw invalid(
        `events[${index}]`,
        `cannot name ${JSON.stringify(type)}: asset and reaction events go only to webhooks subscribed to ["*"].`,
      );
    }
    if (!KNOWN_TYPES.has(type)) {
      throw invalid(
        `events[${index}]`,
        `is not a known event type: ${JSON.stringify(type)}. Known types: ${EVENT_TYPES.join(', ')}.`,
      );
    }
  });
  return [...new Set(events)];
}

export function toWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    active: row.active === 1,
    createdAt: row.created_at,
  };
}

export function toDeliveryView(row: DeliveryWithType): DeliveryView {
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempts: row.attempts,
    response_status: row.response_status,
    response_body: row.response_body,
    duration_ms: row.duration_ms,
    error: row.error,
    created_at: row.created_at,
    last_attempt_at: row.last_attempt_at,
    next_attempt_at: row.status === 'pending' ? new Date(row.next_attempt_at).toISOString() : null,
  };
}
