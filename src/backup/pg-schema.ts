import { sql } from 'kysely';
import { type Database, openDatabase } from '../db/database.js';
import { BackupError } from './manifest.js';

/** The schema DATABASE_URL's connections use, and the newest migration applied in it. */
export async function readPostgresSchema(
  databaseUrl: string,
): Promise<{ schema: string; schemaVersion: string }> {
  return withPostgres(databaseUrl, async (database) => {
    const schema = await currentSchema(database);
    if (schema === null) throw new BackupError('DATABASE_URL names no existing schema: nothing to back up');
    const { rows } = await sql<{
      name: string;
    }>`select name from laneboard_migrations order by name desc limit 1`
      .execute(database.kysely)
      .catch(() => ({ rows: [] as Array<{ name: string }> }));
    const newest = rows[0]?.name;
    if (newest === undefined) {
      throw new BackupError(`schema ${schema} holds no Laneboard database: run \`laneboard migrate\` first`);
    }
    return { schema, schemaVersion: newest };
  });
}

/**
 * Where a restore would put the dump's tables: the current schema, or, when that does not exist yet, the
 * first one of the search_path; and whether it holds any table, sequence or view.
 */
export async function restoreTarget(
  databaseUrl: string,
): Promise<{ schema: string | null; objects: number }> {
  return withPostgres(databaseUrl, async (database) => {
    const schema = (await currentSchema(database)) ?? (await firstSearchPathSchema(database));
    if (schema === null) return { schema, objects: 0 };
    const { rows } = await sql<{ count: number | string }>`
      select count(*) as count from pg_catalog.pg_class c
      join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = ${schema} and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')`.execute(database.kysely);
    return { schema, objects: Number(rows[0]?.count ?? 0) };
  });
}

/** Creates the schema the dump is restored into (pg_restore is told not to: it may exist, empty). */
export async function ensureSchema(databaseUrl: string, schema: string): Promise<boolean> {
  return withPostgres(databaseUrl, async (database) => {
    const { rows } = await sql<{ present: boolean }>`
      select exists (select 1 from pg_catalog.pg_namespace where nspname = ${schema}) as present`.execute(
      database.kysely,
    );
    if (rows[0]?.present) return false;
    await sql`create schema ${sql.id(schema)}`.execute(database.kysely);
    return true;
  });
}

export async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  await withPostgres(databaseUrl, (database) => sql`drop schema ${sql.id(schema)}`.execute(database.kysely));
}

async function currentSchema(database: Database): Promise<string | null> {
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(
    database.kysely,
  );
  return rows[0]?.schema ?? null;
}

async function firstSearchPathSchema(database: Database): Promise<string | null> {
  const { rows } = await sql<{ path: string }>`select current_setting('search_path') as path`.execute(
    database.kysely,
  );
  const first = (rows[0]?.path ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .find((entry) => entry !== '' && entry !== '"$user"' && entry !== '$user');
  if (first === undefined) return null;
  return first.startsWith('"') ? first.slice(1, -1).replace(/""/g, '"') : first;
}

async function withPostgres<T>(databaseUrl: string, work: (database: Database) => Promise<T>): Promise<T> {
  const database = openDatabase({ databaseUrl, dataDir: '.', poolSize: 1 });
  try {
    return await work(database);
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(
      `the database DATABASE_URL names cannot be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  } finally {
    await database.close();
  }
}
