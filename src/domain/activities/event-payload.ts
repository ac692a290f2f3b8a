import { WEBHOOK_EVENT_TYPES, WILDCARD_ONLY_EVENT_TYPES } from '../../schemas/events.js';
import { keyWebhookActor, type MemberRef, type WebhookActor } from '../actor.js';
import { activityEventId, encodeActivityCursor } from './activity-cursor.js';
import type { Activity, ActivityActor } from './activity-types.js';

/**
 * The types on the activity stream: the webhook event types (asset and reaction events included), made
 * by any door, the web UI's too. Activities no webhook can receive (a board renamed in the web UI,
 * captured turns) are not events and stay out, like `ping`, which is no change.
 */
export const STREAMED_TYPES: ReadonlySet<string> = new Set([
  ...WEBHOOK_EVENT_TYPES,
  ...WILDCARD_ONLY_EVENT_TYPES,
]);

/** The body of a webhook delivery and of an activity stream event: `{id, type, timestamp, actor, data}`. */
export interface EventPayload<A extends object = WebhookActor> {
  id: string;
  type: string;
  timestamp: string;
  actor?: A;
  data: Record<string, unknown>;
}

/**
 * The one mapper from an activity to the webhook payload shape, used by webhook fan-out (at the
 * mutation) and by the activity stream (from the stored row): `data` is the activity's data with
 * `board_id` first.
 */
export function eventPayload<A extends object>(
  eventId: string,
  activity: Pick<Activity, 'type' | 'boardId' | 'createdAt' | 'data'>,
  actor: A | null,
): EventPayload<A> {
  return {
    id: eventId,
    type: activity.type,
    timestamp: activity.createdAt,
    ...(actor ? { actor } : {}),
    data: { board_id: activity.boardId, ...activity.data },
  };
}

/**
 * Who made a change, on the activity stream: a webhook's actor (the agent, or the key with its person)
 * for changes through the API and MCP, and the person for the web UI's, which webhooks never see. The
 * CLI's operator has no id.
 */
export type StreamActor =
  | WebhookActor
  | { type: 'person'; id: string; name: string }
  | { type: 'system'; id: null; name: string };

/** One event of the activity stream: the webhook payload shape, plus where the change came from. */
export interface StreamEvent extends EventPayload<StreamActor> {
  actor: StreamActor;
  origin: Activity['origin'];
  /** Opaque: pass it back as `Last-Event-ID` or `?after=` to resume after this event. */
  cursor: string;
}

/** The stream actor of a stored activity; `keyPerson` is the person a key belongs to (webhooks name them). */
export function streamActor(actor: ActivityActor, keyPerson: MemberRef | null): StreamActor {
  switch (actor.kind) {
    case 'api_key':
      return keyWebhookActor({ keyId: actor.id ?? '', name: actor.name, agent: null, person: keyPerson });
    case 'agent':
      return keyWebhookActor({
        keyId: '',
        name: '',
        agent: { id: actor.id ?? '', name: actor.name },
        person: null,
      });
    case 'user':
      return { type: 'person', id: actor.id ?? '', name: actor.name };
    case 'system':
      return { type: 'system', id: null, name: actor.name };
  }
}

/** A stored activity as a stream event; its `id` and cursor are stable (derived from the activity id). */
export function toStreamEvent(activity: Activity, keyPerson: MemberRef | null): StreamEvent {
  const actor = streamActor(activity.actor, keyPerson);
  return {
    ...eventPayload(activityEventId(activity.id), activity, actor),
    actor,
    origin: activity.origin,
    cursor: encodeActivityCursor(activity.id),
  };
}
