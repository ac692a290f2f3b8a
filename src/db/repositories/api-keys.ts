import { precompiled } from '../precompiled.js';
import type { ApiKeyRow, Executor, Permission } from '../schema.js';

export interface ActiveKeyAccess {
  id: string;
  name: string;
  allBoards: boolean;
  lastUsedAt: string | null;
  grants: Array<{ board_id: string; permission: Permission }>;
  /** The agent the key belongs to, with its current name. */
  agent: { id: string; name: string } | null;
  /** The person who made the key, with their current name. */
  person: { id: string; name: string } | null;
}

export async function insertApiKey(db: Executor, row: ApiKeyRow): Promise<void> {
  await db.insertInto('api_keys').values(row).execute();
}

export async function findApiKeyById(db: Executor, id: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * The active key with this lookup hash, its grants, and its agent's and person's names: one query, on
 * every authenticated request that the key cache does not answer. The cache is told of changes to any
 * of these tables (db/key-changes.ts; migrations 014 and 015).
 */
const activeKeyByHash = precompiled(1, (db, keyHash: string) =>
  db
    .selectFrom('api_keys as k')
    .leftJoin('api_key_grants as g', 'g.api_key_id', 'k.id')
    .leftJoin('agents as a', 'a.id', 'k.agent_id')
    .leftJoin('users as u', 'u.id', 'k.owner_user_id')
    .select([
      'k.id',
      'k.name',
      'k.all_boards',
      'k.last_used_at',
      'g.board_id',
      'g.permission',
      'k.agent_id',
      'a.name as agent_name',
      'k.owner_user_id',
      'u.name as person_name',
    ])
    .where('k.key_hash', '=', keyHash)
    .where('k.revoked_at', 'is', null),
);

export async function findActiveKeyByHash(
  db: Executor,
  keyHash: string,
): Promise<ActiveKeyAccess | undefined> {
  const rows = await activeKeyByHash(db, keyHash);
  const first = rows[0];
  if (!first) return undefined;
  const allBoards = first.all_boards === 1;
  const grants = allBoards
    ? []
    : rows.flatMap((r) =>
        r.board_id !== null && r.permission !== null
          ? [{ board_id: r.board_id, permission: r.permission }]
          : [],
      );
  return {
    id: first.id,
    name: first.name,
    allBoards,
    lastUsedAt: first.last_used_at,
    grants,
    agent: first.agent_id !== null ? { id: first.agent_id, name: first.agent_name ?? '' } : null,
    person: first.owner_user_id !== null ? { id: first.owner_user_id, name: first.person_name ?? '' } : null,
  };
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

/** Sets last_used_at unless another request (or instance) did so within the last minute. */
export async function markKeyUsed(db: Executor, id: string, now: string, notSince: string): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ last_used_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', notSince)]))
    .execute();
}

export async function replaceGrants(
  db: Executor,
  keyId: string,
  allBoards: boolean,
  grants: ReadonlyArray<{ boardId: string; permission: Permission }>,
  now: string,
): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ all_boards: allBoards ? 1 : 0 })
    .where('id', '=', keyId)
    .execute();
  await db.deleteFrom('api_key_grants').where('api_key_id', '=', keyId).execute();
  for (const grant of grants) await upsertGrant(db, keyId, grant.boardId, grant.permission, now);
}

export async function activeKeyIdsOfOwner(db: Executor, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('api_keys')
    .select('id')
    .where('owner_user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
  return rows.map((r) => r.id);
}

/** A key's name with its agent's and person's names (the actor of a webhook's ping). */
export async function keyWithMembers(
  db: Executor,
  keyId: string,
): Promise<Pick<ActiveKeyAccess, 'id' | 'name' | 'agent' | 'person'> | undefined> {
  const row = await db
    .selectFrom('api_keys as k')
    .leftJoin('agents as a', 'a.id', 'k.agent_id')
    .leftJoin('users as u', 'u.id', 'k.owner_user_id')
    .select([
      'k.id',
      'k.name',
      'k.agent_id',
      'a.name as agent_name',
      'k.owner_user_id',
      'u.name as person_name',
    ])
    .where('k.id', '=', keyId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    name: row.name,
    agent: row.agent_id !== null ? { id: row.agent_id, name: row.agent_name ?? '' } : null,
    person: row.owner_user_id !== null ? { id: row.owner_user_id, name: row.person_name ?? '' } : null,
  };
}
