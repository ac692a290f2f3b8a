import { sql } from 'kysely';
import type { Executor } from '../schema.js';

/*
 * What GET /metrics reads of the webhook outbox, at scrape time. Every query stays on
 * `deliveries_due_idx` (status, next_attempt_at), which holds exactly the pending deliveries' range: its
 * cost follows the queue, never the history (test/integration/query-plans-metrics.test.ts). `'pending'`
 * is written literally, as the partial indexes' queries do (migration 012).
 */

export interface DeliveryQueueState {
  /** Deliveries not yet delivered nor given up: due now, in flight, or waiting for a retry. */
  pending: number;
  /**
   * When the longest-waiting due delivery of an active webhook became due (epoch ms), or null when none
   * is due. A paused webhook's deliveries wait by design and are left out.
   */
  oldestDueAt: number | null;
  /** Webhooks with a delivery waiting for a retry: their receiver failed its last attempt. */
  failingWebhooks: number;
}

export async function deliveryQueueState(db: Executor, nowMs: number): Promise<DeliveryQueueState> {
  const pending = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('status', '=', sql.lit('pending'))
    .executeTakeFirstOrThrow();
  // In due order, the first of an active webhook: the walk stops there (min() with the join would not).
  const oldest = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .select('d.next_attempt_at')
    .where('d.status', '=', sql.lit('pending'))
    .where('d.next_attempt_at', '<=', nowMs)
    .where('w.active', '=', 1)
    .orderBy('d.next_attempt_at')
    .limit(1)
    .executeTakeFirst();
  // A failed attempt with retries left puts the delivery's next attempt in the future.
  const failing = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.count<number | string>('webhook_id').distinct().as('n'))
    .where('status', '=', sql.lit('pending'))
    .where('next_attempt_at', '>', nowMs)
    .where('attempts', '>', 0)
    .executeTakeFirstOrThrow();
  return {
    pending: Number(pending.n),
    oldestDueAt: oldest === undefined ? null : Number(oldest.next_attempt_at),
    failingWebhooks: Number(failing.n),
  };
}

/** Webhooks by state: active ones are sent events, paused ones (`active: false`) are not. */
export async function webhookCounts(db: Executor): Promise<{ active: number; paused: number }> {
  const rows = await db
    .selectFrom('webhooks')
    .select(['active', (eb) => eb.fn.countAll<number | string>().as('n')])
    .groupBy('active')
    .execute();
  const count = (active: number) => Number(rows.find((row) => Number(row.active) === active)?.n ?? 0);
  return { active: count(1), paused: count(0) };
}
