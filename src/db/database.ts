import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, sql } from 'kysely';
import type pg from 'pg';
import { type KeyChanges, pgKeyChanges, sqliteKeyChanges } from './key-changes.js';
import { PgNotifier } from './pg-notifier.js';
import { preparedStatementsOn } from './pg-prepared.js';
import type { DB, Dialect } from './schema.js';
import { BACKSTOP_AUTOCHECKPOINT_PAGES, SqliteCheckpointer } from './sqlite-checkpointer.js';
import { registerSqliteDirect } from './sqlite-direct.js';
import { LockReleases, LockWaitingSqliteDialect, SQLITE_BUSY_TIMEOUT_MS } from './sqlite-lock-wait.js';
import { withStatementCache } from './sqlite-statement-cache.js';

export interface Database {
  readonly kysely: Kysely<DB>;
  readonly dialect: Dialect;
  /** The PostgreSQL pool, for LISTEN/NOTIFY and advisory locks; null on SQLite. */
  readonly pgPool: pg.Pool | null;
  /** When stored API keys or grants may have changed (for caches of key lookups). */
  readonly keyChanges: KeyChanges;
  /** PostgreSQL: sends NOTIFYs after commit, batched (see pg-notifier.ts); null on SQLite. */
  readonly pgNotifier: PgNotifier | null;
  /**
   * PostgreSQL: runs `work` on one pooled connection, given both as Kysely and as the pg client (for
   * what Kysely cannot do: read every result of a multi-statement message). Throws on SQLite.
   */
  withPgConnection<T>(work: (db: Kysely<DB>, client: pg.PoolClient) => Promise<T>): Promise<T>;
  /**
   * SQLite: the count of the serving connection's write-lock releases, shared with the webhook
   * dispatcher's thread (sqlite-lock-wait.ts, LockReleases).
   */
  readonly sqliteLockReleases?: SharedArrayBuffer;
  close(): Promise<void>;
}

/** How much of the SQLite file is read through a memory map (256 MiB). */
const SQLITE_MMAP_BYTES = 256 * 1024 * 1024;

export interface DatabaseOptions {
  databaseUrl: string | null;
  dataDir: string;
  poolSize?: number;
  /** SQLite file path override (tests use a file per suite or `:memory:`). */
  sqliteFile?: string;
  /** Told about errors of idle PostgreSQL connections (the pool replaces them); logged by the runtime. */
  onPoolError?: (error: Error) => void;
  /** Told when a batch of notifications could not be sent. */
  onNotifyError?: (error: unknown, channels: string[]) => void;
  /** Told when a background SQLite checkpoint fails (the serving connection's backstop takes over). */
  onCheckpointError?: (error: Error) => void;
}

let pgModule: typeof pg | null = null;

/**
 * The pg driver, loaded on the first PostgreSQL database: a SQLite process (the CLI's commands on the
 * default setup, in particular) does not pay for loading it. Synchronous, as openDatabase is: pg is
 * CommonJS, so `require` loads it.
 */
function loadPg(): typeof pg {
  if (!pgModule) {
    pgModule = createRequire(import.meta.url)('pg') as typeof pg;
    // PostgreSQL returns BIGINT (int8) as text by default; our epoch-millisecond columns fit a double exactly.
    pgModule.types.setTypeParser(20, (value) => Number(value));
  }
  return pgModule;
}

/**
 * A Kysely instance whose every query runs on `client` (checked out by withPgConnection), kept for the
 * client's life. Kysely checks connections out of its pool itself; this one's pool hands out the client
 * and leaves releasing it to withPgConnection. (An AsyncLocalStorage telling withPgConnection which
 * client Kysely took turned on Node's promise hooks, which slow down every await in the process.)
 */
const kyselyByClient = new WeakMap<pg.PoolClient, Kysely<DB>>();
function kyselyOnClient(client: pg.PoolClient): Kysely<DB> {
  let kysely = kyselyByClient.get(client);
  if (!kysely) {
    const lent = {
      query: (...args: unknown[]) => (client.query as (...a: unknown[]) => unknown)(...args),
      release: () => {},
    } as unknown as pg.PoolClient;
    kysely = new Kysely<DB>({
      dialect: new PostgresDialect({ pool: { connect: async () => lent, end: async () => {} } }),
    });
    kyselyByClient.set(client, kysely);
  }
  return kysely;
}

export function openDatabase(options: DatabaseOptions): Database {
  if (options.databaseUrl) {
    const pg = loadPg();
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    // A dropped idle connection must not crash the process (the pool replaces it), but it is reported.
    pool.on('error', (error) => options.onPoolError?.(error));
    const checkoutPool = {
      connect: async () => {
        const client = await pool.connect();
        preparedStatementsOn(client);
        return client;
      },
      end: () => pool.end(),
    };
    const kysely = new Kysely<DB>({ dialect: new PostgresDialect({ pool: checkoutPool }) });
    const keyChanges = pgKeyChanges(pool, pg.Client);
    const pgNotifier = new PgNotifier(pool, (error, channels) => options.onNotifyError?.(error, channels));
    return {
      kysely,
      dialect: 'postgres',
      pgPool: pool,
      keyChanges,
      pgNotifier,
      withPgConnection: async (work) => {
        const client = await checkoutPool.connect();
        try {
          // A new instance per checkout: transactions keep their state in WeakMaps keyed by `tx.db`.
          return await work(kyselyOnClient(client).withoutPlugins(), client);
        } finally {
          client.release();
        }
      },
      close: async () => {
        await pgNotifier.flushed();
        await keyChanges.close();
        await kysely.destroy();
      },
    };
  }
  const file = options.sqliteFile ?? path.join(options.dataDir, 'laneboard.sqlite');
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  // Reads of the database file through a memory map instead of a read() per page: a one-word search
  // at 100 000 tasks took half the CPU (9.1 -> 4.3 ms p50), its index's pages being read at random.
  // The log (WAL) is read as before; SQLite maps at most this much of the file.
  if (file !== ':memory:') sqlite.pragma(`mmap_size = ${SQLITE_MMAP_BYTES}`);
  // Checkpoints run in a worker (sqlite-checkpointer.ts); this connection's own is the backstop.
  const checkpointer =
    file === ':memory:' ? null : new SqliteCheckpointer(file, (error) => options.onCheckpointError?.(error));
  if (checkpointer) {
    sqlite.pragma(`wal_autocheckpoint = ${BACKSTOP_AUTOCHECKPOINT_PAGES}`);
    // After a burst, the log is reused from its start; keep its file from staying at the burst's size.
    sqlite.pragma('journal_size_limit = 67108864');
  }
  const rollbackListeners = new Set<() => void>();
  const statements = withStatementCache(sqlite, 1000, () => {
    for (const listener of rollbackListeners) listener();
  });
  const lockReleases = new LockReleases();
  const kysely = new Kysely<DB>({
    dialect: new LockWaitingSqliteDialect(sqlite, { database: statements }, lockReleases),
  });
  registerSqliteDirect(kysely, { sqlite, prepare: statements.prepareCached, rollbackListeners });
  const keyChanges = sqliteKeyChanges(sqlite);
  rollbackListeners.add(() => keyChanges.rolledBack());
  return {
    kysely,
    dialect: 'sqlite',
    pgPool: null,
    keyChanges,
    pgNotifier: null,
    withPgConnection: () => Promise.reject(new Error('withPgConnection is for PostgreSQL only')),
    sqliteLockReleases: lockReleases.buffer,
    close: async () => {
      await checkpointer?.close();
      await kysely.destroy();
    },
  };
}

/** The health check's query: resolves once the database answers a trivial statement. */
export async function pingDatabase(database: Database): Promise<void> {
  await sql`select 1`.execute(database.kysely);
}
