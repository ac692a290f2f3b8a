import SqliteDatabase from 'better-sqlite3';
import { SQLITE_BUSY_TIMEOUT_MS } from '../db/sqlite-lock-wait.js';
import { BackupError } from './manifest.js';

/** Pages per backup step after the first: all that remain (SQLite's maximum for one step). */
const ALL_REMAINING_PAGES = 0x7fffffff;

/**
 * Copies the SQLite database at `source` to `target` with SQLite's online backup, while a server may be
 * writing to it, and returns the newest migration the copy holds.
 *
 * The copy is made in one step (after the backup's first, empty one): a step reads inside one read
 * transaction, so the copy is the database as of one commit; in WAL mode writers go on meanwhile. Copying
 * in small steps instead would start over after every write of the server between two steps, and under
 * a steady write load might never finish. The copy is then switched to a rollback journal, so it is one
 * self-contained file (the server switches it back to WAL when it opens it after a restore).
 */
export async function copySqliteDatabase(source: string, target: string): Promise<string> {
  const db = new SqliteDatabase(source, { fileMustExist: true });
  try {
    db.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    await db.backup(target, { progress: () => ALL_REMAINING_PAGES });
  } finally {
    db.close();
  }
  const copy = new SqliteDatabase(target, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
    const problem = copy.pragma('quick_check', { simple: true });
    if (problem !== 'ok')
      throw new BackupError(`the copy failed SQLite's integrity check: ${String(problem)}`);
    return newestMigration(copy);
  } finally {
    copy.close();
  }
}

function newestMigration(db: SqliteDatabase.Database): string {
  let row: { name: string } | undefined;
  try {
    row = db.prepare('select name from laneboard_migrations order by name desc limit 1').get() as
      | { name: string }
      | undefined;
  } catch {
    row = undefined;
  }
  if (!row) throw new BackupError('the database has no Laneboard schema: run `laneboard migrate` first');
  return row.name;
}
