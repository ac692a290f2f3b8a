import { sql } from 'kysely';
import { insertDeliveries, insertEvent } from '../db/repositories/deliveries.js';
import { listWebhooksForBoard } from '../db/repositories/webhooks.js';
import { type Actor, recordsEvents } from '../domain/actor.js';
import type { DomainEvent, EventRecorder } from '../domain/events.js';
import type { Tx } from '../domain/transaction.js';
import { newId } from '../lib/ids.js';
import { type Clock, systemClock } from '../lib/time.js';
import type { WebhookEventPayload } from './payload.js';

export type { WebhookEventPayload } from './payload.js';

/** PostgreSQL channel on which committed deliveries wake every instance's dispatcher. */
export const DELIVERY_CHANNEL = 'laneboard_deliveries';

export function subscribedTo(events: readonly string[], type: string): boolean {
  return events.includes('*') || events.includes(type);
}

/**
 * The transactional outbox: the event and one delivery per matching webhook are written in the
 * mutation's own transaction, so nothing fires for a rolled-back change and nothing is lost for a
 * committed one. Matching is decided now, at mutation time.
 */
export class OutboxEventRecorder implements EventRecorder {
  constructor(
    private readonly onCommittedDeliveries: () => void,
    private readonly clock: Clock = systemClock,
  ) {}

  async record(tx: Tx, actor: Actor, event: DomainEvent): Promise<void> {
    if (!recordsEvents(actor)) return;
    const candidates = await listWebhooksForBoard(tx.db, event.boardId);
    const webhookIds = candidates
      .filter((w) => subscribedTo(JSON.parse(w.events) as string[], event.type))
      .map((w) => w.id);
    if (webhookIds.length === 0) return;
    const now = this.clock.now();
    const payload: WebhookEventPayload = {
      id: newId('evt'),
      type: event.type,
      timestamp: new Date(now).toISOString(),
      data: { board_id: event.boardId, ...event.data },
    };
    await queueEvent(tx, payload, event.boardId, webhookIds, now);
    tx.afterCommit(this.onCommittedDeliveries);
  }
}

/**
 * Writes the event and one pending delivery per webhook in the caller's transaction and tells other
 * instances' dispatchers once it commits. Returns the delivery ids, in the order of `webhookIds`.
 */
export async function queueEvent(
  tx: Tx,
  payload: WebhookEventPayload,
  boardId: string | null,
  webhookIds: readonly string[],
  nowMs: number,
): Promise<string[]> {
  await insertEvent(tx.db, payload, boardId);
  const ids = await insertDeliveries(tx.db, payload.id, webhookIds, nowMs);
  await notifyDispatchers(tx);
  return ids;
}

/** NOTIFY is transactional on PostgreSQL: listeners hear it only if the transaction commits. */
export async function notifyDispatchers(tx: Tx): Promise<void> {
  if (tx.dialect === 'postgres') await sql`select pg_notify(${DELIVERY_CHANNEL}, '')`.execute(tx.db);
}
