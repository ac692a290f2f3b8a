import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type Database, openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import type { Dialect } from '../../src/db/schema.js';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? null;

/** Both dialects, always listed: PostgreSQL suites are reported as skipped when no server is configured. */
export const DIALECTS: Array<{ dialect: Dialect; skip: boolean }> = [
  { dialect: 'sqlite', skip: false },
  { dialect: 'postgres', skip: TEST_DATABASE_URL === null },
];

export interface TestDatabase {
  database: Database;
  /** The connection URL (PostgreSQL, with its own schema) or SQLite file, for starting servers on it. */
  databaseUrl: string | null;
  sqliteFile: string | null;
  drop(): Promise<void>;
}

/**
 * A fresh database: a new SQLite file, or a new schema on the PostgreSQL test server; migrated to the
 * latest schema unless `migrate` is false (migration tests apply their own steps).
 */
export async function createTestDatabase(
  dialect: Dialect,
  { migrate = true }: { migrate?: boolean } = {},
): Promise<TestDatabase> {
  const suffix = randomBytes(6).toString('hex');
  if (dialect === 'sqlite') {
    const file = path.join(os.tmpdir(), `laneboard-test-${process.pid}-${suffix}.sqlite`);
    const database = openDatabase({ databaseUrl: null, dataDir: os.tmpdir(), sqliteFile: file });
    if (migrate) await migrateToLatest(database);
    return { database, databaseUrl: null, sqliteFile: file, drop: () => database.close() };
  }
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `lbt_${suffix}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const databaseUrl = url.toString();
  const database = openDatabase({ databaseUrl, dataDir: os.tmpdir(), poolSize: 5 });
  if (migrate) await migrateToLatest(database);
  return {
    database,
    databaseUrl,
    sqliteFile: null,
    drop: async () => {
      await database.close();
      const cleanup = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await cleanup.connect();
      await cleanup.query(`drop schema ${schema} cascade`);
      await cleanup.end();
    },
  };
}

/**
 * The same database through a connection (SQLite) or pool (PostgreSQL) of its own, as another process
 * or server instance has it; the caller closes it.
 */
export function openSecondConnection(db: TestDatabase, poolSize = 2): Database {
  return openDatabase({
    databaseUrl: db.databaseUrl,
    dataDir: os.tmpdir(),
    poolSize,
    ...(db.sqliteFile ? { sqliteFile: db.sqliteFile } : {}),
  });
}
