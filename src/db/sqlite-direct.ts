import type BetterSqlite3 from 'better-sqlite3';
import type { Executor } from './schema.js';

/** The SQLite connection behind a database's root executor, for reads that need no Kysely round. */
export interface SqliteDirect {
  readonly sqlite: BetterSqlite3.Database;
  /** Prepared statements shared with Kysely's driver (sqlite-statement-cache.ts). */
  prepare(text: string): BetterSqlite3.Statement;
  /** Listeners told before the connection rolls a transaction (or to a savepoint) back. */
  readonly rollbackListeners: Set<() => void>;
}

// By the Kysely instance's dialect adapter, which its transactions share.
const connections = new WeakMap<object, SqliteDirect>();

/** Called once by openDatabase for the root Kysely instance of a SQLite database. */
export function registerSqliteDirect(root: Executor, direct: SqliteDirect): void {
  connections.set(root.getExecutor().adapter, direct);
}

/** The SQLite connection `db` (the database or one of its transactions) runs on, if registered. */
export function sqliteConnection(db: Executor): SqliteDirect | undefined {
  return connections.get(db.getExecutor().adapter);
}

/**
 * The connection, when statements may run on it synchronously right now: `db` is a transaction (which
 * holds the connection), or the database itself while no transaction is open (a statement then reads
 * exactly the committed state, as Kysely would, minus its connection mutex and promise hops). With
 * another request's transaction open (between its awaits) a read must go through Kysely, which waits for
 * it: running it now would see that transaction's uncommitted writes. Undefined otherwise, and always
 * on PostgreSQL.
 */
export function directSqlite(db: Executor): SqliteDirect | undefined {
  const direct = sqliteConnection(db);
  return direct && (db.isTransaction || !direct.sqlite.inTransaction) ? direct : undefined;
}
