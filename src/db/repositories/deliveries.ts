import { CompiledQuery, sql } from 'kysely';
import { newId } from '../../lib/ids.js';
import { registerPrepared } from '../pg-prepared.js';
import type { DeliveryRow, Executor } from '../schema.js';
import { directSqlite } from '../sqlite-direct.js';
import type { Tx } from '../transaction.js';

/** The JSON body of every delivery, stored once per event and sent byte-for-byte on every attempt. */
export interface WebhookEventPayload {
  id: string;
  type: string;
  timestamp: string;
  /** Who caused the event (`{type: "agent" | "key", id, name, person?}`), as the domain describes it. */
  actor?: object;
  data: Record<string, unknown>;
}

import { DELIVERY_CHANNEL } from './delivery-channel.js';

export { DELIVERY_CHANNEL };

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
  const ids = await insertDeliveries(tx, payload.id, webhookIds, nowMs);
  notifyDispatchers(tx);
  return ids;
}

/**
 * Wakes every instance's dispatcher once the transaction commits; once per transaction however many
 * deliveries it queued.
 */
export function notifyDispatchers(tx: Tx): void {
  if (tx.dialect !== 'postgres') return;
  tx.notifyAfterCommit(DELIVERY_CHANNEL, '');
}

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

/**
 * Queues one pending delivery of the event per webhook, due at once. Returns the delivery ids. The rows
 * travel as one JSON parameter of a fixed statement: a Kysely multi-row insert was built and compiled
 * anew for every change (20 webhooks: 140 parameters, 60–90 µs of CPU per change before any row was
 * written), and a fixed text is prepared once (on PostgreSQL a named statement, pg-prepared.ts).
 */
export async function insertDeliveries(
  tx: Tx,
  eventId: string,
  webhookIds: readonly string[],
  nowMs: number,
): Promise<string[]> {
  const createdAt = new Date(nowMs).toISOString();
  const ids = webhookIds.map(() => newId('dlv'));
  const pairs = JSON.stringify(ids.map((id, i) => [id, webhookIds[i]]));
  const direct = directSqlite(tx.db);
  if (direct) {
    direct.prepare(INSERT_DELIVERIES_SQLITE).run(eventId, nowMs, createdAt, pairs);
    return ids;
  }
  const text = tx.dialect === 'postgres' ? INSERT_DELIVERIES_POSTGRES : INSERT_DELIVERIES_SQLITE;
  await tx.db.executeQuery(CompiledQuery.raw(text, [eventId, nowMs, createdAt, pairs]));
  return ids;
}

const INSERT_DELIVERIES_SQLITE = `insert into webhook_deliveries
  (id, webhook_id, event_id, status, attempts, next_attempt_at, created_at)
  select value ->> 0, value ->> 1, ?, 'pending', 0, ?, ? from json_each(?)`;
const INSERT_DELIVERIES_POSTGRES = `insert into webhook_deliveries
  (id, webhook_id, event_id, status, attempts, next_attempt_at, created_at)
  select pair ->> 0, pair ->> 1, $1::text, 'pending', 0, $2::bigint, $3::text
  from jsonb_array_elements($4::jsonb) as pair`;
registerPrepared(INSERT_DELIVERIES_POSTGRES);

export async function findDeliveryOfWebhook(
  db: Executor,
  webhookId: string,
  deliveryId: string,
): Promise<Pick<DeliveryRow, 'id' | 'event_id'> | undefined> {
  return db
    .selectFrom('webhook_deliveries')
    .select(['id', 'event_id'])
    .where('id', '=', deliveryId)
    .where('webhook_id', '=', webhookId)
    .executeTakeFirst();
}

export type DeliveryWithType = DeliveryRow & { event_type: string };

/** The webhook's newest deliveries, newest first. */
export async function listRecentDeliveries(
  db: Executor,
  webhookId: string,
  limit: number,
): Promise<DeliveryWithType[]> {
  return newestDeliveries(db, webhookId, null, limit);
}

/**
 * The webhook's newest `limit` deliveries (of one status when given), newest first: ordered by
 * created_at, then id, both descending. `deliveries_webhook_idx` holds finished deliveries only
 * (migration 012), so pending ones are found through `deliveries_due_idx` (status, next_attempt_at)
 * among all pending deliveries, a bounded backlog, and the two indexed reads are merged in one
 * statement. The literal `status <> 'pending'` is what lets the planner use the partial index.
 */
export async function newestDeliveries(
  db: Executor,
  webhookId: string,
  status: DeliveryRow['status'] | null,
  limit: number,
): Promise<DeliveryWithType[]> {
  const withType = () =>
    db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
      .selectAll('d')
      .select('e.type as event_type')
      .orderBy('d.created_at', 'desc')
      .orderBy('d.id', 'desc');
  const finished = () =>
    withType().where('d.webhook_id', '=', webhookId).where(sql<boolean>`d.status <> 'pending'`).limit(limit);
  // The webhook's pending deliveries are picked by id first and only the chosen ones read in full:
  // all of them are read to be sorted, and the backlog may be long.
  const pending = () =>
    withType().where(
      'd.id',
      'in',
      db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('status', '=', sql.lit('pending'))
        .where('webhook_id', '=', webhookId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit),
    );
  if (status === 'pending') return pending().execute();
  if (status !== null) return finished().where('d.status', '=', status).execute();
  return db
    .selectFrom(finished().as('f'))
    .selectAll()
    .unionAll(db.selectFrom(pending().as('p')).selectAll())
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
