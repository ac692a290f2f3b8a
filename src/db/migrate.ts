import { setTimeout as delay } from 'node:timers/promises';
import { type Migration, type MigrationProvider, type MigrationResult, Migrator, sql } from 'kysely';
import type { Database } from './database.js';
import { initialMigration } from './migrations/001-initial.js';
import { retentionIndexesMigration } from './migrations/002-retention-indexes.js';
import { activitiesMigration } from './migrations/003-activities.js';
import { peopleMigration } from './migrations/004-people.js';
import { assetsReactionsMigration } from './migrations/005-assets-reactions.js';
import { idempotencyMigration } from './migrations/006-idempotency.js';
import { performanceMigration } from './migrations/007-performance-indexes.js';
import { taskRanksMigration } from './migrations/008-task-ranks.js';
import { activityInsertCostMigration } from './migrations/009-activity-insert-cost.js';
import { activityRowidsMigration } from './migrations/010-activity-rowids.js';
import { webhookChangesMigration } from './migrations/011-webhook-changes.js';
import { pendingDeliveriesUnindexedMigration } from './migrations/012-pending-deliveries-unindexed.js';
import { recentActivitiesMigration } from './migrations/013-recent-activities.js';
import { keyChangeStampMigration } from './migrations/014-key-change-stamp.js';
import { agentsAssigneesMigration } from './migrations/015-agents-assignees.js';
import { oidcIdentitiesMigration } from './migrations/016-oidc-identities.js';
import { searchIndexMigration } from './migrations/017-search-index.js';
import { notificationsMigration } from './migrations/018-notifications.js';
import { tagColorsMigration } from './migrations/019-tag-colors.js';
import { searchSpeedMigration } from './migrations/020-search-speed.js';
import { taskChangeStampMigration } from './migrations/021-task-change-stamp.js';
import { notificationRetentionMigration } from './migrations/022-notification-retention.js';
import { searchPhrasesMigration } from './migrations/023-search-phrases.js';
import type { Dialect } from './schema.js';

/** Every migration, by name; names sort in the order they apply. New migrations are added here. */
export function migrationsFor(dialect: Dialect): Record<string, Migration> {
  return {
    '001-initial': initialMigration(dialect),
    '002-retention-indexes': retentionIndexesMigration,
    '003-activities': activitiesMigration(dialect),
    '004-people': peopleMigration,
    '005-assets-reactions': assetsReactionsMigration(dialect),
    '006-idempotency': idempotencyMigration,
    '007-performance-indexes': performanceMigration(dialect),
    '008-task-ranks': taskRanksMigration(dialect),
    '009-activity-insert-cost': activityInsertCostMigration,
    '010-activity-rowids': activityRowidsMigration(dialect),
    '011-webhook-changes': webhookChangesMigration(dialect),
    '012-pending-deliveries-unindexed': pendingDeliveriesUnindexedMigration,
    '013-recent-activities': recentActivitiesMigration(dialect),
    '014-key-change-stamp': keyChangeStampMigration(dialect),
    '015-agents-assignees': agentsAssigneesMigration(dialect),
    '016-oidc-identities': oidcIdentitiesMigration,
    '017-search-index': searchIndexMigration(dialect),
    '018-notifications': notificationsMigration,
    '019-tag-colors': tagColorsMigration,
    '020-search-speed': searchSpeedMigration(dialect),
    '021-task-change-stamp': taskChangeStampMigration(dialect),
    '022-notification-retention': notificationRetentionMigration,
    '023-search-phrases': searchPhrasesMigration(dialect),
  };
}

class StaticMigrationProvider implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrationsFor(this.dialect);
  }
}

/** The schema is older than this version's code: only `laneboard migrate` (or `serve`) may change it. */
export class SchemaOutdatedError extends Error {
  constructor(readonly pending: readonly string[]) {
    super(
      `The database schema is out of date (${pending.length} migration${pending.length === 1 ? '' : 's'} pending): run \`laneboard migrate\` first.`,
    );
    this.name = 'SchemaOutdatedError';
  }
}

/** The database was migrated by a newer Laneboard: this version does not know some applied migrations. */
export class SchemaTooNewError extends Error {
  constructor(readonly unknown: readonly string[]) {
    super(
      `The database has migrations this version does not know (${unknown.join(', ')}): it was migrated by a newer Laneboard. Run that version, or restore a backup taken before the upgrade.`,
    );
    this.name = 'SchemaTooNewError';
  }
}

/** Applied migrations this version does not have (none on a fresh database). */
async function unknownAppliedMigrations(database: Database): Promise<string[]> {
  const known = new Set(Object.keys(migrationsFor(database.dialect)));
  let applied: string[];
  try {
    const { rows } = await sql<{ name: string }>`select name from laneboard_migrations`.execute(
      database.kysely,
    );
    applied = rows.map((r) => r.name);
  } catch {
    // No migration table yet: nothing applied.
    return [];
  }
  return applied.filter((name) => !known.has(name)).sort();
}

async function refuseNewerSchema(database: Database): Promise<void> {
  const unknown = await unknownAppliedMigrations(database);
  if (unknown.length > 0) throw new SchemaTooNewError(unknown);
}

async function migratorFor(database: Database): Promise<Migrator> {
  return new Migrator({
    db: database.kysely,
    provider: new StaticMigrationProvider(database.dialect),
    migrationTableName: 'laneboard_migrations',
    migrationLockTableName: 'laneboard_migrations_lock',
    // Without a schema, Kysely takes a migration table in ANY schema of the database for ours, and then
    // fails to find it in our search_path (another deployment's or test's schema in the same database).
    ...(database.dialect === 'postgres' ? { migrationTableSchema: await currentSchema(database) } : {}),
  });
}

/**
 * Applies pending migrations (up to `target` when given: tests build older schemas that way). Kysely
 * runs them in one transaction and, on PostgreSQL, holds an advisory lock meanwhile, so instances
 * starting together never apply one twice.
 */
export async function migrateToLatest(database: Database, target?: string): Promise<string[]> {
  await refuseNewerSchema(database);
  const migrator = await migratorFor(database);
  const run = () => (target === undefined ? migrator.migrateToLatest() : migrator.migrateTo(target));
  let { error, results } = await run();
  // Kysely's migrator checks for its tables by reading the catalog of every schema in the database;
  // another schema dropped meanwhile (another deployment's, or a test's) makes that read fail with
  // "schema … does not exist" or "relation … does not exist" before anything was applied. Nothing was
  // changed, so it is run again.
  // Under constant churn (test suites creating and dropping schemas side by side) a read can fail
  // several times in a row: try for a while, with short random pauses so the reads fall between drops.
  for (let attempt = 1; error && attempt < 30 && isConcurrentSchemaDrop(error, results); attempt++) {
    await delay(5 + Math.random() * 20);
    ({ error, results } = await run());
  }
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

function isConcurrentSchemaDrop(error: unknown, results: readonly MigrationResult[] | undefined): boolean {
  const nothingApplied = (results ?? []).every((r) => r.status === 'NotExecuted');
  return nothingApplied && isCatalogChurn(error);
}

/** The error a catalog read across schemas fails with when another schema is dropped meanwhile. */
function isCatalogChurn(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return (
    error instanceof Error &&
    ((code === '3F000' && /^schema ".*" does not exist$/.test(error.message)) || // invalid_schema_name
      (code === '42P01' && /^relation ".*" does not exist$/.test(error.message)) || // undefined_table
      // Kysely's introspection calls pg_get_serial_sequence(table, column) for every column of every
      // schema; a table dropped between the catalog read and that call fails so.
      (code === '42703' && /^column ".*" of relation ".*" does not exist$/.test(error.message))) // undefined_column
  );
}

/** A read of Kysely's migration state, tried again as migrateToLatest is when another schema is dropped. */
async function readingCatalog<T>(read: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (error) {
      if (attempt >= 30 || !isCatalogChurn(error)) throw error;
      await delay(5 + Math.random() * 20);
    }
  }
}

async function currentSchema(database: Database): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(database.kysely);
  const schema = rows[0]?.schema;
  if (!schema) throw new Error('PostgreSQL has no current schema: check search_path in DATABASE_URL.');
  return schema;
}

/** The names of the migrations not yet applied to this database. */
export async function pendingMigrations(database: Database): Promise<string[]> {
  const migrator = await migratorFor(database);
  // The CLI's commands other than migrate read this; it reads the catalog as the migrator does.
  const migrations = await readingCatalog(() => migrator.getMigrations());
  return migrations.filter((m) => m.executedAt === undefined).map((m) => m.name);
}

/** Fails with SchemaOutdatedError unless every migration has been applied. */
export async function requireCurrentSchema(database: Database): Promise<void> {
  await refuseNewerSchema(database);
  const pending = await pendingMigrations(database);
  if (pending.length > 0) throw new SchemaOutdatedError(pending);
}
