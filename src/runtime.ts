import type { Redis } from 'ioredis';
import { type Logger, pino } from 'pino';
import type { Config } from './config.js';
import type { ConsoleRuntimeOptions } from './console-runtime.js';
import { type Database, openDatabase } from './db/database.js';
import { migrateToLatest, requireCurrentSchema } from './db/migrate.js';
import { hasActiveWebhooks } from './db/repositories/webhooks.js';
import { DatabaseActivityRecorder } from './domain/activities/activity-recorder.js';
import { ActivityRetention } from './domain/activities/activity-retention.js';
import type { ActivityConsumer } from './domain/activities/activity-types.js';
import { NotificationWriter } from './domain/notifications/notification-writer.js';
import { loggableError } from './lib/loggable-error.js';
import { resolveMasterKey } from './lib/master-key.js';
import type { HostResolver } from './lib/net/url-guard.js';
import { SecretBox } from './lib/secret-box.js';
import { type Clock, systemClock } from './lib/time.js';
import type { ChangeFeed } from './live/change-feed.js';
import type { Metrics } from './metrics/metrics.js';
import { createServices, type ServiceOptions, type Services } from './services.js';
import { BoardWebhooks } from './webhooks/board-webhooks.js';
import type { Dispatcher } from './webhooks/dispatcher-thread.js';
import { WebhookFanOut } from './webhooks/outbox.js';
import type { DispatcherOptions } from './webhooks/webhook-dispatcher.js';

/**
 * What to do with the schema at start: `apply` pending migrations (`serve`, `migrate`), `require` it to
 * be current (every other CLI command: "run laneboard migrate"), or `skip` (tests that migrated it).
 */
export type MigrationMode = 'apply' | 'require' | 'skip';

export interface RuntimeOptions {
  /** An open, migrated database (tests); the runtime then leaves closing it to the caller. */
  database?: Database;
  migrations?: MigrationMode;
  clock?: Clock;
  /** Default: pino at the configured level, with secrets redacted. */
  log?: Logger;
  /** Default: from LANEBOARD_SECRET_KEY or the data directory's key file. */
  secrets?: SecretBox;
  /** Connect to REDIS_URL for shared rate-limit counters (serve only). */
  redis?: boolean;
  /** Extra activity consumers after webhook fan-out and the change feed (tests record with these). */
  activityConsumers?: readonly ActivityConsumer[];
  /** DNS for the webhook URL check at create/update (tests). */
  urlResolve?: HostResolver;
  /** Overrides of the dispatcher's settings (tests: poll interval, DNS at connect, concurrency). */
  dispatcher?: Partial<Omit<DispatcherOptions, 'database' | 'secrets' | 'clock' | 'log'>>;
  /**
   * Run the webhook dispatcher on its own thread and SQLite connection (the server; SQLite only, and only
   * when the runtime opened the database and derived the secrets itself).
   */
  dispatcherThread?: boolean;
  /** Extra service options (features that need settings add them to ServiceOptions). */
  services?: Omit<ServiceOptions, 'webhooks' | 'changeFeed'>;
}

export interface Runtime {
  readonly config: Config;
  readonly database: Database;
  readonly secrets: SecretBox;
  readonly clock: Clock;
  readonly log: Logger;
  readonly services: Services;
  readonly activities: DatabaseActivityRecorder;
  /** "Board B changed up to activity N", after commit, from every instance. */
  readonly changeFeed: ChangeFeed;
  readonly dispatcher: Dispatcher;
  readonly redis: Redis | null;
  /** The process's Prometheus metrics (GET /metrics); null unless LANEBOARD_METRICS_TOKEN is set. */
  readonly metrics: Metrics | null;
  /** Starts the background work of a server: webhook delivery and history retention. */
  startBackground(): void;
  /** Stops background work (attempts in flight finish), then closes Redis and the database. */
  close(): Promise<void>;
}

/** Pino with the redaction every log line needs: no API key, secret or Authorization header. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: { paths: ['req.headers.authorization', '*.secret', '*.key'], censor: '[redacted]' },
  });
}

/** What every runtime starts from: the log, the clock, the database with its schema checked, the secrets. */
export interface Foundation {
  log: Logger;
  clock: Clock;
  database: Database;
  ownsDatabase: boolean;
  secrets: SecretBox;
  /** Null when the secrets were given (tests): the dispatcher thread then cannot derive its own. */
  masterKey: string | null;
}

export async function openFoundation(config: Config, options: ConsoleRuntimeOptions): Promise<Foundation> {
  const log = options.log ?? createLogger(config.logLevel);
  const clock = options.clock ?? systemClock;
  const ownsDatabase = options.database === undefined;
  const database =
    options.database ??
    openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      poolSize: config.databasePoolSize,
      onPoolError: (error) => log.warn({ err: loggableError(error) }, 'idle database connection failed'),
      onCheckpointError: (error) => log.warn({ err: loggableError(error) }, 'background checkpoint failed'),
      onNotifyError: (error, channels) =>
        log.warn({ err: loggableError(error), channels }, 'notification after commit not sent'),
    });
  try {
    const mode = options.migrations ?? 'require';
    if (mode === 'apply') await migrateToLatest(database);
    else if (mode === 'require') await requireCurrentSchema(database);
  } catch (error) {
    if (ownsDatabase) await database.close();
    throw error;
  }
  const masterKey = options.secrets ? null : resolveMasterKey(config.secretKey, config.dataDir);
  const secrets = options.secrets ?? new SecretBox(masterKey as string);
  return { log, clock, database, ownsDatabase, secrets, masterKey };
}

/** The services' settings from the configuration (both runtimes). */
export function serviceOptions(config: Config, options: ConsoleRuntimeOptions): ServiceOptions {
  return {
    assets: { maxBytes: config.assetMaxBytes },
    ...options.services,
    people: {
      sessionTtlMs: config.sessionTtlMs,
      passwordSignIn: config.oidc?.passwordSignIn ?? true,
      ...options.services?.people,
    },
    sso: options.services?.sso ?? { allowedDomains: config.oidc?.allowedDomains ?? [] },
  };
}

/**
 * The composition root: builds everything a process needs from the configuration, once. `main.ts`, the
 * MCP server over HTTP and the test support use it; the CLI's console commands use its lighter sibling
 * createConsoleRuntime (console-runtime.ts); nothing else wires services by hand. The webhook dispatcher, the live
 * streams and the retention jobs are loaded here with import() rather than by this module, so that the
 * console runtime does not load them (once, at start: nothing on a request's path).
 */
export async function createRuntime(config: Config, options: RuntimeOptions = {}): Promise<Runtime> {
  const { log, clock, database, ownsDatabase, secrets, masterKey } = await openFoundation(config, options);
  const [{ ChangeFeed }, { WebhookHistoryRetention }, { NotificationFeed }, { NotificationRetention }] =
    await Promise.all([
      import('./live/change-feed.js'),
      import('./webhooks/webhook-history-retention.js'),
      import('./live/notification-feed.js'),
      import('./domain/notifications/notification-retention.js'),
    ]);

  const dispatcherSettings = {
    timeoutMs: config.webhooks.timeoutMs,
    retryDelaysMs: config.webhooks.retryDelaysMs,
    allowPrivate: config.webhooks.allowPrivate,
  };
  const { resolve: _resolve, onAttempts: _onAttempts, ...threadable } = options.dispatcher ?? {};
  // prom-client is loaded only when metrics are on. The live-stream count is read at scrape time.
  const metrics = config.metricsToken
    ? new (await import('./metrics/metrics.js')).Metrics({
        database,
        clock,
        openStreams: () => changeFeed.subscriptions,
        onCollectError: (error) =>
          log.warn({ err: loggableError(error) }, 'metrics: the database could not be read'),
      })
    : null;
  const onAttempts = metrics ? { onAttempts: metrics.countAttempts.bind(metrics) } : {};
  const dispatcher: Dispatcher =
    options.dispatcherThread && ownsDatabase && database.dialect === 'sqlite' && masterKey !== null
      ? new (await import('./webhooks/dispatcher-thread.js')).ThreadedDispatcher(
          {
            dataDir: config.dataDir,
            masterKey,
            ...dispatcherSettings,
            ...threadable,
            reportAttempts: !!metrics,
            ...(database.sqliteLockReleases ? { lockReleases: database.sqliteLockReleases } : {}),
          },
          log,
          () => hasActiveWebhooks(database.kysely),
          onAttempts.onAttempts,
        )
      : // Loaded only here: a server whose dispatcher runs on its own thread does not load undici.
        new (await import('./webhooks/webhook-dispatcher.js')).WebhookDispatcher({
          database,
          secrets,
          clock,
          log,
          ...dispatcherSettings,
          ...options.dispatcher,
          ...onAttempts,
        });
  const wakeDispatcher = () => dispatcher.wake();
  const changeFeed = new ChangeFeed(database, log);
  const inboxFeed = new NotificationFeed(database, log);
  const inboxChanged = (personIds: readonly string[]) => inboxFeed.publish(personIds);
  // The activity's consumers: webhook fan-out and notifications inside each mutation's transaction,
  // the change feed (live boards) after its commit, then the tests' recorders.
  const activities = new DatabaseActivityRecorder(clock, [
    new WebhookFanOut(wakeDispatcher, new BoardWebhooks(database)),
    new NotificationWriter(inboxChanged),
    changeFeed,
    ...(options.activityConsumers ?? []),
  ]);
  const services = await createServices(
    { database, activities, secrets, clock },
    {
      ...serviceOptions(config, options),
      changeFeed,
      inboxFeed,
      notifications: { onInboxChanged: inboxChanged },
      webhooks: {
        allowHttp: config.webhooks.allowHttp,
        allowPrivate: config.webhooks.allowPrivate,
        onDeliveriesQueued: wakeDispatcher,
        onWebhookCreated: () => dispatcher.prepare(),
        ...(options.urlResolve ? { resolve: options.urlResolve } : {}),
      },
    },
  );
  const redis = options.redis && config.redisUrl ? await connectRedis(config.redisUrl) : null;
  const webhookRetention = new WebhookHistoryRetention({
    database,
    retentionMs: config.webhooks.retentionMs,
    clock,
    log,
  });
  const activityRetention = new ActivityRetention({
    database,
    clock,
    log,
    retentionMs: config.activityRetentionMs,
  });
  const notificationRetention = new NotificationRetention({
    database,
    clock,
    log,
    readRetentionMs: config.notificationRetention.readMs,
    unreadRetentionMs: config.notificationRetention.unreadMs,
    onInboxChanged: inboxChanged,
  });

  let closed = false;
  return {
    config,
    database,
    secrets,
    clock,
    log,
    services,
    activities,
    changeFeed,
    dispatcher,
    redis,
    metrics,
    startBackground() {
      dispatcher.start();
      webhookRetention.start();
      activityRetention.start();
      notificationRetention.start();
    },
    async close() {
      if (closed) return;
      closed = true;
      // Attempts in flight finish (bounded by the webhook time-out) before the database closes.
      await dispatcher.stop();
      await webhookRetention.stop();
      await activityRetention.stop();
      await notificationRetention.stop();
      await changeFeed.stop();
      await inboxFeed.stop();
      metrics?.close();
      redis?.disconnect();
      if (ownsDatabase) await database.close();
    },
  };
}

/** ioredis is loaded only when Redis is configured: about 12 MB a server without it does not need. */
async function connectRedis(url: string): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    lazyConnect: false,
    maxRetriesPerRequest: 2,
    // While Redis is unreachable a command fails at once, and the limiter serves the request
    // unlimited, instead of waiting in ioredis's offline queue through its reconnection back-off
    // (measured: every request delayed, from 0.2 s growing to several seconds).
    enableOfflineQueue: false,
    // A Redis that accepts connections but does not answer must not hold requests either.
    commandTimeout: 1000,
  });
  // ioredis reconnects by itself and would print each failed attempt with its stack; the rate-limit
  // plugin logs every request it serves without the store instead.
  redis.on('error', () => {});
  return redis;
}
