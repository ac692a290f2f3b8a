import type { Permission } from '../../domain/actor.js';
import type { ApiKeyRow, Executor } from '../schema.js';

export interface KeyWithGrants {
  key: ApiKeyRow;
  grants: Array<{ board_id: string; permission: Permission }>;
}

export async function insertApiKey(db: Executor, row: ApiKeyRow): Promise<void> {
  await db.insertInto('api_keys').values(row).execute();
}

export async function findApiKeyById(db: Executor, id: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The active key with this lookup hash and its grants, in one round trip per table. */
export async function findActiveKeyByHash(db: Executor, keyHash: string): Promise<KeyWithGrants | undefined> {
  const key = await db
    .selectFrom('api_keys')
    .selectAll()
    .where('key_hash', '=', keyHash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (!key) return undefined;
  const grants = key.all_boards ? [] : await listGrants(db, key.id);
  return { key, grants };
}

export async function listApiKeys(db: Executor): Promise<ApiKeyRow[]> {
  return db.selectFrom('api_keys').selectAll().orderBy('created_at').orderBy('id').execute();
}

export async function listGrants(
  db: Executor,
  keyId: string,
): Promise<Array<{ board_id: string; permission: Permission }>> {
  return db
    .selectFrom('api_key_grants')
    .select(['board_id', 'permission'])
    .where('api_key_id', '=', keyId)
    .orderBy('created_at')
    .execute();
}

export async function upsertGrant(
  db: Executor,
  keyId: string,
  boardId: string,
  permission: Permission,
  now: string,
): Promise<void> {
  await db
    .insertInto('api_key_grants')
    .values({ api_key_id: keyId, board_id: boardId, permission, created_at: now })
    .onConflict((oc) => oc.columns(['api_key_id', 'board_id']).doUpdateSet({ permission }))
    .execute();
}

export async function markKeyRevoked(db: Executor, id: string, now: string): Promise<void> {
  await db.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', id).execute();
}
