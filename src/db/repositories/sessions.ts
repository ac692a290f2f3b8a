import type { Executor, SessionRow, UserRow } from '../schema.js';

export async function insertSession(db: Executor, row: SessionRow): Promise<void> {
  await db.insertInto('sessions').values(row).execute();
}

/** The session and its person, if the session exists (expiry is judged by the caller's clock). */
export async function findSessionWithUser(
  db: Executor,
  idHash: string,
): Promise<{ session: SessionRow; user: UserRow } | undefined> {
  const row = await db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select([
      's.id_hash',
      's.user_id',
      's.created_at as session_created_at',
      's.last_seen_at',
      's.expires_at',
      'u.id',
      'u.email',
      'u.email_key',
      'u.name',
      'u.password_hash',
      'u.role',
      'u.active',
      'u.created_at',
      'u.updated_at',
    ])
    .where('s.id_hash', '=', idHash)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    session: {
      id_hash: row.id_hash,
      user_id: row.user_id,
      created_at: row.session_created_at,
      last_seen_at: row.last_seen_at,
      expires_at: row.expires_at,
    },
    user: {
      id: row.id,
      email: row.email,
      email_key: row.email_key,
      name: row.name,
      password_hash: row.password_hash,
      role: row.role,
      active: row.active,
      created_at: row.created_at,
      updated_at: row.updated_at,
    },
  };
}

export async function touchSession(
  db: Executor,
  idHash: string,
  lastSeenAt: string,
  expiresAt: string,
): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ last_seen_at: lastSeenAt, expires_at: expiresAt })
    .where('id_hash', '=', idHash)
    .execute();
}

export async function deleteSession(db: Executor, idHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
}

export async function deleteSessionsOfUser(db: Executor, userId: string): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
}

export async function deleteExpiredSessions(db: Executor, now: string): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<', now).execute();
}
