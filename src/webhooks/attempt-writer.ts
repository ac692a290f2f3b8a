import type { Database } from '../db/database.js';
import {
  type AttemptRecord,
  type AttemptResultEntry,
  recordAttempts,
} from '../db/repositories/delivery-attempt-results.js';
import type { Executor } from '../db/schema.js';

type PendingRecord = AttemptResultEntry;

const MAX_BATCH = 500;
/**
 * How long results gather before they are written on their own. A commit costs about as much as a few
 * dozen results (more when SQLite checkpoints its WAL), and on SQLite every transaction waits its turn
 * for the one connection behind the requests' transactions, so results are written a few milliseconds'
 * worth at a time, or earlier with the next claim (writeWith). This delays only the record, never an
 * attempt.
 */
const GATHER_MS = 50;

/**
 * Stores attempt results in batches. Until a result is written, the delivery's lease keeps it from
 * being claimed again, and a crash before the write only means the attempt is made again.
 */
export class AttemptWriter {
  private pending: PendingRecord[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly database: Database,
    private readonly onError: (error: unknown, count: number) => void,
  ) {}

  add(id: string, leaseOwner: string, record: AttemptRecord): void {
    this.pending.push({ id, leaseOwner, record });
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.writing = this.writing.then(() => this.writeAll());
    }, GATHER_MS);
  }

  /**
   * Writes the results gathered so far in the caller's transaction (the claim's: one turn on the
   * database instead of two). If that transaction fails they are lost like any unwritten result: the
   * leases run out and the attempts are made again.
   */
  async writeWith(trx: Executor): Promise<void> {
    const batch = this.pending.splice(0, MAX_BATCH);
    await recordAttempts(trx, this.database.dialect, batch);
  }

  /** Whether results are waiting to be written. */
  get hasPending(): boolean {
    return this.pending.length > 0;
  }

  /** Resolves once everything added so far is written (or has failed to be). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.writing;
    if (this.pending.length > 0) {
      this.writing = this.writing.then(() => this.writeAll());
      await this.writing;
    }
  }

  private async writeAll(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, MAX_BATCH);
      try {
        await this.database.kysely
          .transaction()
          .execute((trx) => recordAttempts(trx, this.database.dialect, batch));
      } catch (error) {
        // Not stored: the leases run out and these deliveries are attempted again.
        this.onError(error, batch.length);
      }
    }
  }
}
