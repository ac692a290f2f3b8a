import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { DatabaseActivityRecorder } from './domain/activities/activity-recorder.js';
import type { ActivityConsumer } from './domain/activities/activity-types.js';
import { NotificationWriter } from './domain/notifications/notification-writer.js';
import { loggableError } from './lib/loggable-error.js';
import type { SecretBox } from './lib/secret-box.js';
import type { Clock } from './lib/time.js';
import type { ChangeFeed } from './live/change-feed.js';
import { openFoundation, type RuntimeOptions, serviceOptions } from './runtime.js';
import { createDomainServices, type DomainServices } from './services.js';
import { BoardWebhooks } from './webhooks/board-webhooks.js';
import { WebhookFanOut } from './webhooks/outbox.js';

/** What a console runtime takes: the database, schema, clock, log, secrets and service settings. */
export type ConsoleRuntimeOptions = Pick<
  RuntimeOptions,
  'database' | 'migrations' | 'clock' | 'log' | 'secrets' | 'services'
>;

/** A process that serves nothing and runs no background work: the CLI's `keys`, `users` and `migrate`. */
export interface ConsoleRuntime {
  readonly config: Config;
  readonly database: Database;
  readonly secrets: SecretBox;
  readonly clock: Clock;
  readonly log: Logger;
  /** The domain services: without the live board streams, which only a server serves. */
  readonly services: DomainServices;
  /** Sends what the change feed still holds (PostgreSQL), then closes the database. */
  close(): Promise<void>;
}

/**
 * The runtime of a console command: the same database, secrets, activity and domain services as a
 * server's, without what only a serving process runs, so the command loads none of it (no webhook
 * dispatcher, no live streams, no retention jobs; docs/decisions.md, "A console runtime"). Its changes
 * reach a running server as any instance's do: queued deliveries are found by the server's dispatcher
 * (a woken in-process dispatcher that is not started does nothing, as the CLI's did before), and board
 * changes are published by the change feed, loaded on the first committed activity.
 */
export async function createConsoleRuntime(
  config: Config,
  options: ConsoleRuntimeOptions = {},
): Promise<ConsoleRuntime> {
  const { log, clock, database, ownsDatabase, secrets } = await openFoundation(config, options);
  const changes = lateChangeFeed(database, log);
  const activities = new DatabaseActivityRecorder(clock, [
    new WebhookFanOut(() => {}, new BoardWebhooks(database)),
    // Notifications are written; open inboxes see them when they next re-read.
    new NotificationWriter(),
    changes,
  ]);
  const services = createDomainServices(
    { database, activities, secrets, clock },
    {
      ...serviceOptions(config, options),
      webhooks: { allowHttp: config.webhooks.allowHttp, allowPrivate: config.webhooks.allowPrivate },
    },
  );
  let closed = false;
  return {
    config,
    database,
    secrets,
    clock,
    log,
    services,
    async close() {
      if (closed) return;
      closed = true;
      await changes.stop();
      if (ownsDatabase) await database.close();
    },
  };
}

/**
 * A console process's change feed, loaded on its first committed activity. On PostgreSQL it NOTIFYs
 * every instance, as a server's does; on SQLite the feed is an in-process emitter, and a console
 * process has no stream listening to it, so there is nothing to load.
 */
function lateChangeFeed(database: Database, log: Logger): ActivityConsumer & { stop(): Promise<void> } {
  let feed: Promise<ChangeFeed> | null = null;
  return {
    onCommitted(activities) {
      if (database.dialect !== 'postgres') return;
      feed ??= import('./live/change-feed.js').then(({ ChangeFeed }) => new ChangeFeed(database, log));
      // Chained on one promise: the feed sees the commits in their order.
      feed
        .then((loaded) => loaded.onCommitted(activities))
        .catch((error) => log.warn({ err: loggableError(error) }, 'change feed not loaded'));
    },
    async stop() {
      await (await feed?.catch(() => null))?.stop();
    },
  };
}
