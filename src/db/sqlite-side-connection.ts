import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from './database.js';
import type { DB } from './schema.js';
import { BACKSTOP_AUTOCHECKPOINT_PAGES } from './sqlite-checkpointer.js';
import { registerSqliteDirect } from './sqlite-direct.js';
import { type LockReleases, LockWait } from './sqlite-lock-wait.js';
import { withStatementCache } from './sqlite-statement-cache.js';

/**
 * A second connection to the server's SQLite file, for a worker thread of the same process (the webhook
 * dispatcher's): it writes beside the serving connection, so it must get the write lock soon after the
 * serving connection lets it go. SQLite's own busy handler sleeps 1, 2, 5, 10, 15, 20, 25 ... 100 ms
 * between tries, so against a stream of request transactions a waiting writer fell behind by hundreds of
 * milliseconds (measured: deliveries 300 ms late at 500 events/s). Here a statement refused with
 * SQLITE_BUSY (which has done nothing: BEGIN IMMEDIATE, or a statement outside a transaction) is tried
 * again when the serving connection next releases the lock (`releases`, shared with it) or after a
 * millisecond, up to the same 5 s; the wait blocks only the worker's thread. This connection's own
 * commits and rollbacks count as releases for the serving connection. Checkpoints are left to the
 * serving connection's checkpointer, this one keeps the same backstop. The file must exist (the server
 * has opened and migrated it).
 */
export function openSideConnection(file: string, releases: LockReleases): Database {
  const sqlite = new SqliteDatabase(file, { fileMustExist: true });
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 0');
  sqlite.pragma(`wal_autocheckpoint = ${BACKSTOP_AUTOCHECKPOINT_PAGES}`);
  sqlite.pragma('journal_size_limit = 67108864');
  const polling = {
    close: () => sqlite.close(),
    prepare: (text: string) => retryingBusy(sqlite, sqlite.prepare(text), releases),
  } as unknown as SqliteDatabase.Database;
  const statements = withStatementCache(polling);
  const kysely = new Kysely<DB>({ dialect: new SqliteDialect({ database: statements }) });
  // Prepared statements run directly in this connection's transactions (nothing here listens for
  // rollbacks: no cache is kept on this side).
  registerSqliteDirect(kysely, { sqlite, prepare: statements.prepareCached, rollbackListeners: new Set() });
  return {
    kysely,
    dialect: 'sqlite',
    pgPool: null,
    // Key lookups are the serving connection's; nothing here caches them.
    keyChanges: { current: () => null, changed: () => {}, close: async () => {} },
    pgNotifier: null,
    withPgConnection: () => Promise.reject(new Error('withPgConnection is for PostgreSQL only')),
    close: () => kysely.destroy(),
  };
}

function retryingBusy(
  sqlite: SqliteDatabase.Database,
  statement: SqliteDatabase.Statement,
  releases: LockReleases,
): SqliteDatabase.Statement {
  const run = statement.run.bind(statement);
  const all = statement.all.bind(statement);
  const get = statement.get.bind(statement);
  // Kysely ends transactions with these texts (and so does the statement cache's rollback).
  const ends = /^\s*(commit|rollback|end)\b/i.test(statement.source);
  statement.run = (...params: unknown[]) => {
    if (!ends) return whenFree(releases, () => run(...params));
    try {
      return whenFree(releases, () => run(...params));
    } finally {
      if (!sqlite.inTransaction) releases.released();
    }
  };
  statement.all = (...params: unknown[]) => whenFree(releases, () => all(...params));
  statement.get = (...params: unknown[]) => whenFree(releases, () => get(...params));
  return statement;
}

function whenFree<T>(releases: LockReleases, work: () => T): T {
  // Made on the first refusal only: most statements run at once.
  let wait: LockWait | undefined;
  for (;;) {
    const seen = releases.current();
    try {
      return work();
    } catch (error) {
      wait ??= new LockWait();
      wait.refused(error);
      releases.waitBlocking(seen);
    }
  }
}
