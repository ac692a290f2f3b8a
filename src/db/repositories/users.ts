import type { Executor, Role, UserRow } from '../schema.js';

export async function insertUser(db: Executor, row: UserRow): Promise<void> {
  await db.insertInto('users').values(row).execute();
}

export async function countUsers(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countActiveOwners(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('role', '=', 'owner')
    .where('active', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findUserById(db: Executor, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findUserByEmailKey(db: Executor, emailKey: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email_key', '=', emailKey).executeTakeFirst();
}

export async function listUsers(db: Executor): Promise<UserRow[]> {
  return db.selectFrom('users').selectAll().orderBy('created_at').orderBy('id').execute();
}

export async function updateUser(
  db: Executor,
  id: string,
  changes: Partial<{ name: string; role: Role; active: number; password_hash: string; updated_at: string }>,
): Promise<void> {
  await db.updateTable('users').set(changes).where('id', '=', id).execute();
}

/**
 * Locks the owners' rows for the rest of the transaction on PostgreSQL, so two admins demoting the last
 * two owners at once cannot both pass the "another owner remains" check (SQLite serialises writers).
 */
export async function lockOwners(db: Executor, dialect: 'sqlite' | 'postgres'): Promise<void> {
  if (dialect !== 'postgres') return;
  await db.selectFrom('users').select('id').where('role', '=', 'owner').forUpdate().execute();
}
