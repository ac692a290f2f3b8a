import { type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { Database } from './database.js';
import { initialMigration } from './migrations/001-initial.js';
import { retentionIndexesMigration } from './migrations/002-retention-indexes.js';
import type { Dialect } from './schema.js';

function migrationsFor(dialect: Dialect): Record<string, Migration> {
  return {
    '001-initial': initialMigration(dialect),
    '002-retention-indexes': retentionIndexesMigration,
  };
}

class StaticMigrationProvider implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrationsFor(this.dialect);
  }
}

/**
 * Applies pending migrations. Kysely runs them in one transaction and, on PostgreSQL, holds a
 * PostgreSQL advisory lock meanwhile (taken and released around that transaction), so instances starting together never apply one twice.
 */
export async function migrateToLatest(database: Database): Promise<string[]> {
  const migrator = new Migrator({
    db: database.kysely,
    provider: new StaticMigrationProvider(database.dialect),
    migrationTableName: 'laneboard_migrations',
    migrationLockTableName: 'laneboard_migrations_lock',
    // Without a schema, Kysely takes a migration table in ANY schema of the database for ours, and then
    // fails to find it in our search_path (another deployment's or test's schema in the same database).
    ...(database.dialect === 'postgres' ? { migrationTableSchema: await currentSchema(database) } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

async function currentSchema(database: Database): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(database.kysely);
  const schema = rows[0]?.schema;
  if (!schema) throw new Error('PostgreSQL has no current schema: check search_path in DATABASE_URL.');
  return schema;
}
