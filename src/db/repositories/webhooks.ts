import { sql } from 'kysely';
import { precompiled } from '../precompiled.js';
import type { Executor, WebhookRow } from '../schema.js';

export async function insertWebhook(db: Executor, row: WebhookRow): Promise<void> {
  await db.insertInto('webhooks').values(row).execute();
}

/** Webhooks oldest first; of one key, or of every key when `ownerKeyId` is null. */
export async function listWebhooks(db: Executor, ownerKeyId: string | null): Promise<WebhookRow[]> {
  let query = db.selectFrom('webhooks').selectAll();
  if (ownerKeyId !== null) query = query.where('api_key_id', '=', ownerKeyId);
  return query.orderBy('created_at').orderBy('id').execute();
}

/** The webhook, if it exists and (unless `ownerKeyId` is null) belongs to that key. */
export async function findWebhook(
  db: Executor,
  id: string,
  ownerKeyId: string | null,
): Promise<WebhookRow | undefined> {
  let query = db.selectFrom('webhooks').selectAll().where('id', '=', id);
  if (ownerKeyId !== null) query = query.where('api_key_id', '=', ownerKeyId);
  return query.executeTakeFirst();
}

export async function updateWebhook(
  db: Executor,
  id: string,
  changes: Partial<Pick<WebhookRow, 'url' | 'events' | 'active' | 'secret_sealed' | 'updated_at'>>,
): Promise<void> {
  await db.updateTable('webhooks').set(changes).where('id', '=', id).execute();
}

/**
 * Deletes webhooks with their deliveries (foreign-key cascade) and then the events no other webhook's
 * delivery still refers to, so nothing of their history is left behind.
 */
async function deleteWebhooksWhere(db: Executor, column: 'id' | 'api_key_id', value: string): Promise<void> {
  // The ids first: with a list of values (not a subquery) the planner reads each webhook's deliveries
  // through the index instead of weighing a scan.
  const doomed = (await db.selectFrom('webhooks').select('id').where(column, '=', value).execute()).map(
    (r) => r.id,
  );
  if (doomed.length === 0) return;
  await db
    .deleteFrom('webhook_events')
    .where('id', 'in', (eb) =>
      // Finished and pending deliveries apart, each through an index: the per-webhook index holds
      // finished ones only (migration 012), pending ones are read from the due index.
      eb
        .selectFrom('webhook_deliveries')
        .select('event_id')
        .where('webhook_id', 'in', doomed)
        .where(sql<boolean>`status <> 'pending'`)
        .unionAll(
          eb
            .selectFrom('webhook_deliveries')
            .select('event_id')
            .where('status', '=', sql.lit('pending'))
            .where('webhook_id', 'in', doomed),
        ),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('webhook_deliveries as other')
            .select('other.id')
            .whereRef('other.event_id', '=', 'webhook_events.id')
            .where('other.webhook_id', 'not in', doomed),
        ),
      ),
    )
    .execute();
  await db.deleteFrom('webhooks').where(column, '=', value).execute();
}

export async function deleteWebhook(db: Executor, id: string): Promise<void> {
  await deleteWebhooksWhere(db, 'id', id);
}

export async function deleteWebhooksOfKey(db: Executor, keyId: string): Promise<void> {
  await deleteWebhooksWhere(db, 'api_key_id', keyId);
}

/** Whether any webhook is active (deliveries may be queued for it). */
export async function hasActiveWebhooks(db: Executor): Promise<boolean> {
  const row = await db
    .selectFrom('webhooks')
    .select('id')
    .where('active', '=', 1)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function countWebhooksOfKey(db: Executor, keyId: string): Promise<number> {
  const row = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('api_key_id', '=', keyId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function apiKeyIsActive(db: Executor, keyId: string): Promise<boolean> {
  const row = await db
    .selectFrom('api_keys')
    .select('id')
    .where('id', '=', keyId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Active webhooks of unrevoked keys that hold a grant on the board (all-boards keys count).
 * The event-type filter is applied by the caller, on the decoded `events` list.
 */
const webhooksForBoard = precompiled(1, (db, boardId: string) =>
  db
    .selectFrom('webhooks as w')
    .innerJoin('api_keys as k', 'k.id', 'w.api_key_id')
    .select(['w.id', 'w.events'])
    .where('w.active', '=', 1)
    .where('k.revoked_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('k.all_boards', '=', 1),
        eb.exists(
          eb
            .selectFrom('api_key_grants as g')
            .select('g.board_id')
            .whereRef('g.api_key_id', '=', 'k.id')
            .where('g.board_id', '=', boardId),
        ),
      ]),
    ),
);

/** Runs in every mutation's transaction (the outbox's matching): compiled once. */
export async function listWebhooksForBoard(
  db: Executor,
  boardId: string,
): Promise<Array<Pick<WebhookRow, 'id' | 'events'>>> {
  return webhooksForBoard(db, boardId);
}
