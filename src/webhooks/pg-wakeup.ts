import pg from 'pg';
import { loggableError } from '../lib/loggable-error.js';
import type { DispatcherLog } from './webhook-dispatcher.js';

const RECONNECT_DELAY_MS = 1000;

/**
 * LISTENs on the delivery channel over one dedicated connection, so a commit on any instance wakes this
 * one's dispatcher at once. A lost connection is replaced after a short pause; meanwhile the poll
 * interval keeps deliveries moving, only a little later.
 *
 * The connection is opened beside the pool, with the pool's settings, not taken from it: LISTEN holds
 * it for the life of the process, and taking it from the pool would leave LANEBOARD_DB_POOL_SIZE - 1
 * connections for queries (none with a pool of one, where every request then waited forever).
 */
export class PgWakeListener {
  private client: pg.Client | null = null;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | null = null;
  /** Clients already ended (replaced or stopped): their late errors are not a new loss. */
  private readonly ended = new WeakSet<pg.Client>();

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
    if (client) await this.end(client);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client(this.pool.options);
    client.on('notification', (message) => {
      if (message.channel === this.channel) this.onNotify();
    });
    client.on('error', (error) => this.lost(client, error));
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
    } catch (error) {
      this.lost(client, error);
      return;
    }
    if (this.stopped) {
      await this.end(client);
      return;
    }
    this.client = client;
    // Anything committed while we were not listening is picked up now rather than at the next poll.
    this.onNotify();
  }

  private async end(client: pg.Client): Promise<void> {
    if (this.ended.has(client)) return;
    this.ended.add(client);
    client.removeAllListeners('notification');
    // Ending closes the session, which ends its LISTEN too; a broken connection may fail to say goodbye.
    await client.end().catch(() => {});
  }

  private lost(client: pg.Client, error: unknown): void {
    if (this.ended.has(client)) return;
    void this.end(client);
    if (this.client === client) this.client = null;
    if (this.stopped || this.retryTimer) return;
    this.log.warn({ err: loggableError(error) }, 'webhook LISTEN lost');
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.connect();
    }, RECONNECT_DELAY_MS);
    this.retryTimer.unref();
  }
}
