import type pg from 'pg';
import type { DispatcherLog } from './webhook-dispatcher.js';

const RECONNECT_DELAY_MS = 1000;

/**
 * LISTENs on the delivery channel over one dedicated connection, so a commit on any instance wakes this
 * one's dispatcher at once. A lost connection is replaced after a short pause; meanwhile the poll
 * interval keeps deliveries moving, only a little later.
 */
export class PgWakeListener {
  private client: pg.PoolClient | null = null;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private readonly released = new WeakSet<pg.PoolClient>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly channel: string,
    private readonly onNotify: () => void,
    private readonly log: DispatcherLog,
  ) {}

  start(): void {
    void this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    if (!client) return;
    this.released.add(client);
    client.removeAllListeners('notification');
    try {
      await client.query(`UNLISTEN ${this.channel}`);
      client.release();
    } catch {
      client.release(true);
    }
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    let client: pg.PoolClient | null = null;
    try {
      client = await this.pool.connect();
      client.on('notification', (message) => {
        if (message.channel === this.channel) this.onNotify();
      });
      client.on('error', (error) => this.lost(client, error));
      await client.query(`LISTEN ${this.channel}`);
      if (this.stopped) {
        this.released.add(client);
        client.release();
        return;
      }
      this.client = client;
      // Anything committed while we were not listening is picked up now rather than at the next poll.
      this.onNotify();
    } catch (error) {
      this.lost(client, error);
    }
  }

  private lost(client: pg.PoolClient | null, error: unknown): void {
    if (client && !this.released.has(client)) {
      this.released.add(client);
      client.removeAllListeners('notification');
      // The connection is broken: destroy it instead of returning it to the pool.
      client.release(true);
    }
    if (this.client === client) this.client = null;
    if (this.stopped || this.retryTimer) return;
    this.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'webhook LISTEN lost');
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.connect();
    }, RECONNECT_DELAY_MS);
    this.retryTimer.unref();
  }
}
