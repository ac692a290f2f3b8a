import type { Database } from '../../db/database.js';
import {
  deleteReadNotificationsBefore,
  deleteUnreadNotificationsBefore,
} from '../../db/repositories/notifications.js';
import { loggableError } from '../../lib/loggable-error.js';
import { PeriodicJob } from '../../lib/periodic-job.js';
import type { Clock } from '../../lib/time.js';

export interface NotificationRetentionOptions {
  database: Database;
  clock: Clock;
  log: { warn(detail: object, message: string): void };
  /** Read notifications older than this are deleted (LANEBOARD_NOTIFICATION_RETENTION). */
  readRetentionMs: number;
  /** Unread ones older than this too (LANEBOARD_NOTIFICATION_UNREAD_RETENTION, never shorter). */
  unreadRetentionMs: number;
  /** These people lost unread notifications: their open tabs re-read the unread count. */
  onInboxChanged?: (personIds: readonly string[]) => void;
  /** How often to prune. Default 1 h. */
  intervalMs?: number;
  /** Rows per delete statement. Default 500. */
  batch?: number;
}

/**
 * Keeps every inbox bounded, as webhook and activity history are: read notifications go after
 * LANEBOARD_NOTIFICATION_RETENTION (90 days), unread ones after a longer bound (180 days), as GitHub
 * bounds both (docs/decisions.md, "Notification retention"). Each batch is its own short statement, so
 * on SQLite the write lock is never held for more than one batch. Safe on every instance at once:
 * deleting rows already deleted is a no-op.
 */
export class NotificationRetention {
  private readonly job: PeriodicJob;

  constructor(private readonly options: NotificationRetentionOptions) {
    this.job = new PeriodicJob(() => this.pruneOnce(), options.intervalMs ?? 3_600_000);
  }

  start(): void {
    this.job.start();
  }

  stop(): Promise<void> {
    return this.job.stop();
  }

  /** Deletes every notification past retention; returns how many of each (a database failure is logged). */
  async pruneOnce(): Promise<{ read: number; unread: number }> {
    const { database, clock, readRetentionMs, unreadRetentionMs } = this.options;
    const batch = this.options.batch ?? 500;
    const now = clock.now();
    const readBefore = new Date(now - readRetentionMs).toISOString();
    const unreadBefore = new Date(now - unreadRetentionMs).toISOString();
    const db = database.kysely;
    const people = new Set<string>();
    let read = 0;
    let unread = 0;
    try {
      let deleted: number;
      do {
        deleted = await deleteReadNotificationsBefore(db, readBefore, batch);
        read += deleted;
      } while (deleted === batch);
      do {
        const owners = await deleteUnreadNotificationsBefore(db, unreadBefore, batch);
        for (const personId of owners) people.add(personId);
        deleted = owners.length;
        unread += deleted;
      } while (deleted === batch);
    } catch (error) {
      this.options.log.warn({ err: loggableError(error) }, 'notifications could not be pruned');
    } finally {
      // Read ones leave the count as it was; unread ones lower it, which open tabs should show.
      if (people.size > 0) this.options.onInboxChanged?.([...people]);
    }
    return { read, unread };
  }
}
