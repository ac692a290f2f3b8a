import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DB, Dialect } from './schema.js';
import { withStatementCache } from './sqlite-statement-cache.js';

export interface Database {
  readonly kysely: Kysely<DB>;
  readonly dialect: Dialect;
  /** The PostgreSQL pool, for LISTEN/NOTIFY and advisory locks; null on SQLite. */
  readonly pgPool: pg.Pool | null;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl: string | null;
  dataDir: string;
  poolSize?: number;
  /** SQLite file path override (tests use a file per suite or `:memory:`). */
  sqliteFile?: string;
}

// PostgreSQL returns BIGINT (int8) as text by default; our epoch-millisecond columns fit a double exactly.
pg.types.setTypeParser(20, (value) => Number(value));

export function openDatabase(options: DatabaseOptions): Database {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    // A dropped idle connection must not crash the process; the pool replaces it.
    pool.on('error', () => {});
    const kysely = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return { kysely, dialect: 'postgres', pgPool: pool, close: () => kysely.destroy() };
  }
  const file = options.sqliteFile ?? path.join(options.dataDir, 'laneboard.sqlite');
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const kysely = new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return { kysely, dialect: 'sqlite', pgPool: null, close: () => kysely.destroy() };
}
