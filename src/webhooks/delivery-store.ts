import type { Executor } from '../db/schema.js';
import { newId } from '../lib/ids.js';
import type { WebhookEventPayload } from './outbox.js';

export async function insertEvent(
  db: Executor,
  payload: WebhookEventPayload,
  boardId: string | null,
): Promise<void> {
  await db
    .insertInto('webhook_events')
    .values({
      id: payload.id,
      type: payload.type,
      board_id: boardId,
      payload: JSON.stringify(payload),
      created_at: payload.timestamp,
    })
    .execute();
}

/** Queues one pending delivery of the event per webhook, due at once. Returns the delivery ids. */
export async function insertDeliveries(
  db: Executor,
  eventId: string,
  webhookIds: readonly string[],
  nowMs: number,
): Promise<string[]> {
  const createdAt = new Date(nowMs).toISOString();
  const rows = webhookIds.map((webhookId) => ({
    id: newId('dlv'),
    webhook_id: webhookId,
    event_id: eventId,
    status: 'pending' as const,
    attempts: 0,
    next_attempt_at: nowMs,
    created_at: createdAt,
  }));
  await db.insertInto('webhook_deliveries').values(rows).execute();
  return rows.map((r) => r.id);
}
