import type BetterSqlite3 from 'better-sqlite3';
import type { Executor } from './schema.js';

/** The SQLite connection behind a database's root executor, for reads that need no Kysely round. */
export interface SqliteDirect {
  readonly sqlite: BetterSqlite3.Database;
  /** Prepared statements shared with Kysely's driver (sqlite-statement-cache.ts). */
  prepare(text: string): BetterSqlite3.Statement;
}

const connections = new WeakMap<object, SqliteDirect>();

/** Called once by openDatabase for the root Kysely instance of a SQLite database. */
export function registerSqliteDirect(root: Executor, direct: SqliteDirect): void {
  connections.set(root, direct);
}

/**
 * The connection, when `db` is a SQLite database's root executor (not a transaction) and no transaction
 * is open on that connection; else undefined. A statement run synchronously then reads exactly the
 * committed state, as Kysely would, minus its connection mutex and promise hops. With a transaction open
 * (another request's, between its awaits) the read must go through Kysely, which waits for it: running
 * it now would see that transaction's uncommitted writes.
 */
export function directSqlite(db: Executor): SqliteDirect | undefined {
  const direct = connections.get(db);
  return direct && !direct.sqlite.inTransaction ? direct : undefined;
}
