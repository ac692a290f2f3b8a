import type { Database } from '../../db/database.js';
import { loggableError } from '../../lib/loggable-error.js';
import { PeriodicJob } from '../../lib/periodic-job.js';
import type { Clock } from '../../lib/time.js';
import { pruneActivities } from './activity-service.js';

export interface ActivityRetentionOptions {
  database: Database;
  clock: Clock;
  log: { warn(detail: object, message: string): void };
  /**
   * Activities older than this are deleted (LANEBOARD_ACTIVITY_RETENTION, at least 24 h: the activity
   * stream promises to resume from any cursor of the last day, and answers 410 for older ones).
   */
  retentionMs: number;
  /** How often to prune. Default 1 h. */
  intervalMs?: number;
}

/**
 * Keeps the activity history bounded, as webhook history is. Safe on every instance at once: deleting
 * rows already deleted is a no-op.
 */
export class ActivityRetention {
  private readonly job: PeriodicJob;

  constructor(private readonly options: ActivityRetentionOptions) {
    this.job = new PeriodicJob(() => this.pruneOnce(), options.intervalMs ?? 3_600_000);
  }

  start(): void {
    this.job.start();
  }

  stop(): Promise<void> {
    return this.job.stop();
  }

  /** Deletes every activity past retention; returns how many (0 when the database failed, logged). */
  async pruneOnce(): Promise<number> {
    try {
      return await pruneActivities(this.options, this.options.retentionMs);
    } catch (error) {
      this.options.log.warn({ err: loggableError(error) }, 'activity history could not be pruned');
      return 0;
    }
  }
}
