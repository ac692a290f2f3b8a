import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { resolveMasterKey } from './lib/master-key.js';
import { SecretBox } from './lib/secret-box.js';
import { systemClock } from './lib/time.js';
import { createServices } from './services.js';
import { OutboxEventRecorder } from './webhooks/outbox.js';
import { WebhookDispatcher } from './webhooks/webhook-dispatcher.js';
import { WebhookHistoryRetention } from './webhooks/webhook-history-retention.js';

export async function serve(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`laneboard: invalid configuration: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  const database = openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
  });
  await migrateToLatest(database);
  const secrets = new SecretBox(resolveMasterKey(config.secretKey, config.dataDir));
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, {
        lazyConnect: false,
        maxRetriesPerRequest: 2,
        // While Redis is unreachable a command fails at once, and the limiter serves the request
        // unlimited, instead of waiting in ioredis's offline queue through its reconnection back-off
        // (measured: every request delayed, from 0.2 s growing to several seconds).
        enableOfflineQueue: false,
        // A Redis that accepts connections but does not answer must not hold requests either.
        commandTimeout: 1000,
      })
    : null;
  // ioredis reconnects by itself and would print each failed attempt with its stack; the rate-limit
  // plugin logs every request it serves without the store instead.
  redis?.on('error', () => {});

  // Commits wake the dispatcher, which is built once the app (and its logger) exists.
  let dispatcher: WebhookDispatcher | null = null;
  let retention: WebhookHistoryRetention | null = null;
  const wakeDispatcher = () => dispatcher?.wake();
  const events = new OutboxEventRecorder(wakeDispatcher, systemClock);
  const services = createServices(
    { database, events, secrets, clock: systemClock },
    {
      webhooks: {
        allowHttp: config.webhooks.allowHttp,
        allowPrivate: config.webhooks.allowPrivate,
        onDeliveriesQueued: wakeDispatcher,
      },
    },
  );
  const app = await buildApp({
    database,
    services,
    rateLimit: config.rateLimit,
    redis,
    trustProxy: config.trustProxy,
    logger: {
      level: config.logLevel,
      redact: { paths: ['req.headers.authorization', '*.secret', '*.key'], censor: '[redacted]' },
    },
  });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    // close() stops accepting connections and waits for in-flight requests.
    await app.close();
    // Attempts in flight finish (bounded by the webhook time-out) before the database closes.
    await dispatcher?.stop();
    await retention?.stop();
    redis?.disconnect();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ host: config.host, port: config.port });
  dispatcher = new WebhookDispatcher({
    database,
    secrets,
    clock: systemClock,
    log: app.log,
    timeoutMs: config.webhooks.timeoutMs,
    retryDelaysMs: config.webhooks.retryDelaysMs,
    allowPrivate: config.webhooks.allowPrivate,
  });
  dispatcher.start();
  retention = new WebhookHistoryRetention({
    database,
    retentionMs: config.webhooks.retentionMs,
    log: app.log,
  });
  retention.start();
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  serve().catch((error: unknown) => {
    process.stderr.write(
      `laneboard: failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  });
}
