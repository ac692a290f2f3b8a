import { ConfigError, loadConfig } from '../config.js';
import { type ConsoleRuntime, createConsoleRuntime } from '../console-runtime.js';
import type { Database } from '../db/database.js';
import { migrateToLatest, SchemaOutdatedError, SchemaTooNewError } from '../db/migrate.js';
import { type Actor, CLI_OPERATOR } from '../domain/actor.js';
import { DomainError } from '../domain/errors.js';
import { createLogger } from '../runtime.js';
import type { DomainServices } from '../services.js';
import { CliFailure } from './failure.js';

/**
 * The commands that work on the database or serve. The entry point imports this module only inside
 * those commands' actions, so `--help`, `capture` and `mcp` never load the runtime, the database
 * drivers or the migrations. The console commands use the console runtime: no webhook dispatcher, no
 * live streams, no HTTP server (docs/decisions.md, "A console runtime").
 */

export interface CliContext {
  runtime: ConsoleRuntime;
  services: DomainServices;
  database: Database;
  actor: Actor;
}

/** The runtime's errors as the console reports them; anything else is passed on unchanged. */
function asCliFailure(error: unknown): unknown {
  if (error instanceof ConfigError) return new CliFailure(`invalid configuration: ${error.message}`, 1);
  if (error instanceof SchemaOutdatedError || error instanceof SchemaTooNewError) {
    return new CliFailure(error.message, 1);
  }
  if (error instanceof DomainError) {
    return new CliFailure(error.message, error.code === 'validation_error' ? 2 : 1);
  }
  return error;
}

async function reported<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw asCliFailure(error);
  }
}

/**
 * The runtime for a CLI command, acting as the operator at the console. The schema must be current:
 * only `migrate` and `serve` change it, so an older database is reported, not silently migrated.
 */
async function openCliContext(): Promise<CliContext> {
  const config = loadConfig();
  const runtime = await createConsoleRuntime(
    { ...config, databasePoolSize: 2 },
    // Commands print their own results; only warnings (a failing pool) go to stderr as log lines.
    { migrations: 'require', log: createLogger('warn') },
  );
  return { runtime, services: runtime.services, database: runtime.database, actor: CLI_OPERATOR };
}

/** Runs `work` with a CLI context, closing the runtime afterwards. */
export function withCliContext<T>(work: (ctx: CliContext) => Promise<T>): Promise<T> {
  return reported(async () => {
    const ctx = await openCliContext();
    try {
      return await work(ctx);
    } finally {
      await ctx.runtime.close();
    }
  });
}

/** `laneboard migrate`: applies pending migrations and says which. */
export function migrateCommand(): Promise<void> {
  return reported(async () => {
    const config = loadConfig();
    // Migrated here rather than by the runtime, so the command can print what it applied.
    const runtime = await createConsoleRuntime(
      { ...config, databasePoolSize: 1 },
      { migrations: 'skip', log: createLogger('warn') },
    );
    try {
      const applied = await migrateToLatest(runtime.database);
      process.stdout.write(applied.length ? `Applied: ${applied.join(', ')}\n` : 'Database is up to date.\n');
    } finally {
      await runtime.close();
    }
  });
}

/** `laneboard serve`: the server, as `npm start` runs it; returns only if it fails to start. */
export async function serveCommand(): Promise<never> {
  await reported(async () => {
    const { serve } = await import('../main.js');
    await serve();
  });
  // serve() keeps the process alive until a signal.
  return new Promise<never>(() => {});
}
