import type { Database } from '../db/database.js';
import {
  deleteFinishedDeliveriesBefore,
  deleteUnreferencedEventsBefore,
} from '../db/repositories/webhook-history.js';
import { loggableError } from '../lib/loggable-error.js';
import { PeriodicJob } from '../lib/periodic-job.js';
import { type Clock, systemClock } from '../lib/time.js';
import type { DispatcherLog } from './webhook-dispatcher.js';

export interface RetentionOptions {
  database: Database;
  /** Delivered and failed deliveries older than this are deleted, then events nothing refers to. */
  retentionMs: number;
  clock?: Clock;
  log?: DispatcherLog;
  /** How often to prune. Default 1 h. */
  intervalMs?: number;
}

// Small batches, each its own statement, so pruning never holds locks long enough to delay deliveries.
const BATCH = 500;

/**
 * Keeps webhook history bounded: without it every event and attempt record would be kept forever.
 * Pending deliveries are never touched, whatever their age. Safe on every instance at once: the deletes
 * are idempotent.
 */
export class WebhookHistoryRetention {
  private readonly clock: Clock;
  private readonly job: PeriodicJob;

  constructor(private readonly options: RetentionOptions) {
    this.clock = options.clock ?? systemClock;
    this.job = new PeriodicJob(() => this.pruneOnce(), options.intervalMs ?? 3_600_000);
  }

  start(): void {
    this.job.start();
  }

  stop(): Promise<void> {
    return this.job.stop();
  }

  /** Deletes everything past retention, batch by batch; returns the counts. */
  async pruneOnce(): Promise<{ deliveries: number; events: number }> {
    const before = new Date(this.clock.now() - this.options.retentionMs).toISOString();
    const db = this.options.database.kysely;
    let deliveries = 0;
    let events = 0;
    try {
      let deleted: number;
      do {
        deleted = await deleteFinishedDeliveriesBefore(db, before, BATCH);
        deliveries += deleted;
      } while (deleted === BATCH);
      do {
        deleted = await deleteUnreferencedEventsBefore(db, before, BATCH);
        events += deleted;
      } while (deleted === BATCH);
    } catch (error) {
      this.options.log?.warn({ err: loggableError(error) }, 'webhook history could not be pruned');
    }
    return { deliveries, events };
  }
}
