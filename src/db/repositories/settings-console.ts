import type { DeliveryAttemptRow, Executor } from '../schema.js';
import { type DeliveryWithType, newestDeliveries } from './deliveries.js';

/** Queries behind the web UI's Settings pages (keys and webhooks with what the lists show beside them). */

export async function ownerNames(db: Executor, userIds: readonly string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'name']).where('id', 'in', userIds).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

export async function agentNames(db: Executor, agentIds: readonly string[]): Promise<Map<string, string>> {
  if (agentIds.length === 0) return new Map();
  const rows = await db.selectFrom('agents').select(['id', 'name']).where('id', 'in', agentIds).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

export async function webhookCountsByKey(db: Executor): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('webhooks')
    .select(['api_key_id', (eb) => eb.fn.countAll<string | number>().as('n')])
    .groupBy('api_key_id')
    .execute();
  return new Map(rows.map((r) => [r.api_key_id, Number(r.n)]));
}

export async function grantsWithBoardNames(
  db: Executor,
  keyIds: readonly string[],
): Promise<Array<{ api_key_id: string; board_id: string; board_name: string; permission: 'read' | 'edit' }>> {
  if (keyIds.length === 0) return [];
  return db
    .selectFrom('api_key_grants as g')
    .innerJoin('boards as b', 'b.id', 'g.board_id')
    .select(['g.api_key_id', 'g.board_id', 'b.name as board_name', 'g.permission'])
    .where('g.api_key_id', 'in', keyIds)
    .orderBy('g.created_at')
    .orderBy('b.name')
    .execute();
}

export async function insertReveal(
  db: Executor,
  row: { id: string; api_key_id: string; user_id: string; at: string },
): Promise<void> {
  await db.insertInto('api_key_reveals').values(row).execute();
}

export async function revealsOf(
  db: Executor,
  keyIds: readonly string[],
): Promise<Array<{ api_key_id: string; at: string; user_id: string; user_name: string }>> {
  if (keyIds.length === 0) return [];
  return db
    .selectFrom('api_key_reveals as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select(['r.api_key_id', 'r.at', 'r.user_id', 'u.name as user_name'])
    .where('r.api_key_id', 'in', keyIds)
    .orderBy('r.at', 'desc')
    .orderBy('r.id', 'desc')
    .execute();
}

/** The newest delivery of each listed webhook. */
export async function lastDeliveries(
  db: Executor,
  webhookIds: readonly string[],
): Promise<Map<string, DeliveryWithType>> {
  const result = new Map<string, DeliveryWithType>();
  for (const webhookId of webhookIds) {
    const [row] = await newestDeliveries(db, webhookId, null, 1);
    if (row) result.set(webhookId, row);
  }
  return result;
}

export async function deliveriesOf(
  db: Executor,
  webhookId: string,
  status: 'pending' | 'delivered' | 'failed' | null,
  limit: number,
): Promise<DeliveryWithType[]> {
  return newestDeliveries(db, webhookId, status, limit);
}

export async function attemptsOf(
  db: Executor,
  deliveryIds: readonly string[],
): Promise<DeliveryAttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  return db
    .selectFrom('webhook_delivery_attempts')
    .selectAll()
    .where('delivery_id', 'in', deliveryIds)
    .orderBy('delivery_id')
    .orderBy('number')
    .execute();
}

/** An event a delivery carries, with its board's current name (null once the board is deleted). */
export interface DeliveryEventRow {
  id: string;
  board_id: string | null;
  board_name: string | null;
  payload: string;
}

/** The listed deliveries' events with their boards' names: one statement for a page of the log. */
export async function deliveryEvents(db: Executor, eventIds: readonly string[]): Promise<DeliveryEventRow[]> {
  if (eventIds.length === 0) return [];
  return db
    .selectFrom('webhook_events as e')
    .leftJoin('boards as b', 'b.id', 'e.board_id')
    .select(['e.id', 'e.board_id', 'b.name as board_name', 'e.payload'])
    .where('e.id', 'in', eventIds)
    .execute();
}

/** The tasks the listed events name, as they are now (deleted ones are absent). */
export async function taskNames(
  db: Executor,
  taskIds: readonly string[],
): Promise<Array<{ id: string; short_id: string; title: string }>> {
  if (taskIds.length === 0) return [];
  return db.selectFrom('tasks').select(['id', 'short_id', 'title']).where('id', 'in', taskIds).execute();
}

/**
 * The first delivery of each listed event to this webhook: a later delivery of the same event is a
 * redelivery of it (Redeliver queues the same event again). Read through `deliveries_event_idx`.
 */
export async function firstDeliveries(
  db: Executor,
  webhookId: string,
  eventIds: readonly string[],
): Promise<Map<string, string>> {
  const first = new Map<string, string>();
  if (eventIds.length === 0) return first;
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select(['id', 'event_id'])
    .where('event_id', 'in', eventIds)
    .where('webhook_id', '=', webhookId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  for (const row of rows) if (!first.has(row.event_id)) first.set(row.event_id, row.id);
  return first;
}
