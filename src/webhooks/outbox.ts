import { queueEvent, type WebhookEventPayload } from '../db/repositories/deliveries.js';
import type { Tx } from '../db/transaction.js';
import type { ActivityConsumer, RecordedActivity } from '../domain/activities/activity-types.js';
import { eventPayload } from '../domain/activities/event-payload.js';
import { newId } from '../lib/ids.js';
import type { BoardWebhooks } from './board-webhooks.js';

export type { WebhookEventPayload } from '../db/repositories/deliveries.js';
export { DELIVERY_CHANNEL } from '../db/repositories/deliveries.js';

export function subscribedTo(events: readonly string[], type: string): boolean {
  return events.includes('*') || events.includes(type);
}

/**
 * Webhook fan-out, a consumer of recorded activities: for an activity the domain says fires webhooks,
 * the event and one delivery per matching webhook are written in the mutation's own transaction (the
 * transactional outbox). Matching is decided now, at mutation time.
 */
export class WebhookFanOut implements ActivityConsumer {
  constructor(
    private readonly onCommittedDeliveries: () => void,
    private readonly boardWebhooks: BoardWebhooks,
  ) {}

  async onRecorded(tx: Tx, activity: RecordedActivity): Promise<void> {
    if (!activity.firesWebhooks) return;
    const candidates = await this.boardWebhooks.forBoard(tx.db, activity.boardId);
    const webhookIds = candidates.filter((w) => subscribedTo(w.events, activity.type)).map((w) => w.id);
    if (webhookIds.length === 0) return;
    // Who made the change: the agent, or the key (and the person it belongs to). The same mapper makes
    // the activity stream's events.
    const payload: WebhookEventPayload = eventPayload(newId('evt'), activity, activity.webhookActor);
    await queueEvent(tx, payload, activity.boardId, webhookIds, Date.parse(activity.createdAt));
    tx.afterCommit(this.onCommittedDeliveries);
  }
}
