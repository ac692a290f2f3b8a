import type { DeliveryAttemptRow, Executor } from '../schema.js';
import { type DeliveryWithType, newestDeliveries } from './deliveries.js';

/** Queries behind the web UI's Settings pages (keys and webhooks with what the lists show beside them). */

export async function ownerNames(db: Executor, userIds: readonly string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'name']).where('id', 'in', userIds).execute();
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
