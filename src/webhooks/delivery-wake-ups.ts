import type { Database } from '../db/database.js';
import type { ListenerLog, PgListener } from '../db/pg-listener.js';
import { DELIVERY_CHANNEL } from '../db/repositories/delivery-channel.js';

/**
 * What wakes a dispatcher besides this process's commits: a poll, which also catches anything a lost
 * notification missed, and on PostgreSQL the notifications of other instances' commits.
 */
export class DeliveryWakeUps {
  private listener: PgListener | null = null;
  private listening: Promise<void> | null = null;
  private pollTimer: NodeJS.Timeout | null = null;
  private running = false;

  constructor(
    private readonly database: Database,
    private readonly log: ListenerLog,
    private readonly pollIntervalMs: number,
    private readonly wake: () => void,
  ) {}

  start(): void {
    this.running = true;
    this.pollTimer = setInterval(this.wake, this.pollIntervalMs);
    this.pollTimer.unref();
    const pool = this.database.pgPool;
    if (!pool) return;
    // Loaded here: the PostgreSQL driver is not needed by a dispatcher on SQLite (nor its memory on the
    // dispatcher's thread). Until it listens, the poll and this process's commits wake it.
    this.listening = import('../db/pg-listener.js').then(({ PgListener }) => {
      if (!this.running) return;
      this.listener = new PgListener(pool, DELIVERY_CHANNEL, this.wake, this.log, this.wake);
      this.listener.start();
    });
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.pollTimer) clearInterval(this.pollTimer);
    await this.listening;
    await this.listener?.stop();
  }
}
