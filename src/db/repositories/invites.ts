import type { Executor, InviteRow } from '../schema.js';

export interface InviteWithCreator extends InviteRow {
  creator_name: string;
}

export async function insertInvite(db: Executor, row: InviteRow): Promise<void> {
  await db.insertInto('invites').values(row).execute();
}

export async function findInviteByTokenHash(db: Executor, tokenHash: string): Promise<InviteRow | undefined> {
  return db.selectFrom('invites').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Unused invites that expire after `now`, oldest first. */
export async function listPendingInvites(db: Executor, now: string): Promise<InviteWithCreator[]> {
  return db
    .selectFrom('invites as i')
    .innerJoin('users as u', 'u.id', 'i.created_by')
    .selectAll('i')
    .select('u.name as creator_name')
    .where('i.used_at', 'is', null)
    .where('i.expires_at', '>', now)
    .orderBy('i.created_at')
    .orderBy('i.id')
    .execute();
}

/** Marks the invite used unless it already is; returns whether this call used it (works once). */
export async function markInviteUsed(
  db: Executor,
  id: string,
  userId: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('invites')
    .set({ used_at: now, used_by: userId })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteInvite(db: Executor, id: string): Promise<boolean> {
  const result = await db.deleteFrom('invites').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
