import { sql } from 'kysely';
import type { Database } from '../database.js';
import type { ActivityRow, Executor } from '../schema.js';
import { inTransaction } from '../transaction.js';

/** Every board's activities with `id > afterId`, oldest first. */
export async function activitiesAfter(db: Executor, afterId: number, limit: number): Promise<ActivityRow[]> {
  return db
    .selectFrom('all_activities')
    .selectAll()
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** lock_not_available: the barrier's lock_timeout ran out. */
const LOCK_NOT_AVAILABLE = '55P03';

/**
 * PostgreSQL: waits until every transaction that has written an activity so far has ended, and answers
 * true, or false when that takes longer than `timeoutMs` (then try again later). SHARE mode conflicts
 * with the ROW EXCLUSIVE lock an insert takes and holds to the end of its transaction, so it is granted
 * once the writers in progress are done. While the request waits, new writers queue behind it, so the
 * wait is bounded short. Activity rows are written in the message that commits (db/transaction.ts), so
 * writers hold the lock for milliseconds. True at once on SQLite, where commits are visible in order.
 */
export async function activityWritersFinished(database: Database, timeoutMs: number): Promise<boolean> {
  if (database.dialect === 'sqlite') return true;
  try {
    await inTransaction(database, async (tx) => {
      await sql.raw(`set local lock_timeout = '${Math.max(1, Math.round(timeoutMs))}ms'`).execute(tx.db);
      await sql`lock table activities in share mode`.execute(tx.db);
    });
    return true;
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === LOCK_NOT_AVAILABLE) return false;
    throw error;
  }
}

/** The oldest and newest stored activity ids (both 0 when there is none). */
export async function activityIdBounds(db: Executor): Promise<{ oldest: number; newest: number }> {
  // Ordered reads rather than min()/max(): over SQLite's view they merge the two id-ordered tables.
  const first = await db.selectFrom('all_activities').select('id').orderBy('id').limit(1).executeTakeFirst();
  const last = await db
    .selectFrom('all_activities')
    .select('id')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return { oldest: Number(first?.id ?? 0), newest: Number(last?.id ?? 0) };
}
