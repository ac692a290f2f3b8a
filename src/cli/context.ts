import { loadConfig } from '../config.js';
import { type Database, openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import type { Actor } from '../domain/actor.js';
import { resolveMasterKey } from '../lib/master-key.js';
import { SecretBox } from '../lib/secret-box.js';
import { systemClock } from '../lib/time.js';
import { createServices, type Services } from '../services.js';
import { OutboxEventRecorder } from '../webhooks/outbox.js';

export interface CliContext {
  services: Services;
  database: Database;
  actor: Actor;
}

/** Opens the configured database (migrated) and the services, acting as the operator at the console. */
export async function openCliContext(): Promise<CliContext> {
  const config = loadConfig();
  const database = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  await migrateToLatest(database);
  const secrets = new SecretBox(resolveMasterKey(config.secretKey, config.dataDir));
  const services = createServices({
    database,
    secrets,
    clock: systemClock,
    events: new OutboxEventRecorder(() => {}, systemClock),
  });
  return { services, database, actor: { kind: 'system', origin: 'cli' } };
}
