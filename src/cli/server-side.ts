import { loadConfig } from '../config.js';
import type { Database } from '../db/database.js';
import { type Actor, CLI_OPERATOR } from '../domain/actor.js';
import { createLogger, createRuntime, type Runtime } from '../runtime.js';
import type { Services } from '../services.js';

export interface CliContext {
  runtime: Runtime;
  services: Services;
  database: Database;
  actor: Actor;
}

/**
 * The runtime for a CLI command, acting as the operator at the console. The schema must be current:
 * only `migrate` and `serve` change it, so an older database is reported, not silently migrated.
 */
export async function openCliContext(): Promise<CliContext> {
  const config = loadConfig();
  const runtime = await createRuntime(
    { ...config, databasePoolSize: 2 },
    // Commands print their own results; only warnings (a failing pool) go to stderr as log lines.
    { migrations: 'require', log: createLogger('warn') },
  );
  return { runtime, services: runtime.services, database: runtime.database, actor: CLI_OPERATOR };
}
