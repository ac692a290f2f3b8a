import pg from 'pg';
import { loggableError } from '../lib/loggable-error.js';

/** Where a listener reports a lost connection. */
export interface ListenerLog {
  warn(detail: object, message: string): void;
}

/** Channel names are fixed identifiers of ours, never user input: LISTEN cannot take a parameter. */
const CHANNEL_NAME = /^[a-z_][a-z0-9_]*$/;

const RECONNECT_DELAY_MS = 1000;

/**
 * LISTENs on one channel over one dedicated connection, so a commit on any instance is heard by this
 * one at once. A lost connection is replaced after a short pause; `onConnected` runs after every
 * (re)connection, told whether it is a reconnection, so the owner can catch up on what it may have
 * missed meanwhile.
 *
 * The connection is opened beside the pool, with the pool's settings, not taken from it: LISTEN holds
 * it for the life of the process, and taking it from the pool would leave LANEBOARD_DB_POOL_SIZE - 1
 * connections for queries (none with a pool of one, where every request then waited forever).
 */
export class PgListener {
  private client: pg.Client | null = null;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | null = null;
  /** Clients already ended (replaced or stopped): their late errors are not a new loss. */
  private readonly ended = new WeakSet<pg.Client>();
  private markConnected: () => void = () => {};
  private connections = 0;
  private readonly firstConnection = new Promise<void>((resolve) => {
    this.markConnected = resolve;
  });

  constructor(
    private readonly pool: pg.Pool,
    private readonly channel: string,
    private readonly onNotify: (payload: string) => void,
    private readonly log: ListenerLog,
    private readonly onConnected: (reconnected: boolean) => void = () => {},
  ) {
    if (!CHANNEL_NAME.test(channel)) throw new Error(`invalid channel name: ${channel}`);
  }

  start(): void {
    void this.connect();
  }

  /** Resolves once LISTEN is first in place (tests wait on it before committing). */
  connected(): Promise<void> {
    return this.firstConnection;
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
      if (message.channel === this.channel) this.onNotify(message.payload ?? '');
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
    this.markConnected();
    // Anything committed while we were not listening is picked up now rather than at the next poll.
    this.onConnected(this.connections++ > 0);
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
    this.log.warn({ err: loggableError(error), channel: this.channel }, 'LISTEN connection lost');
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.connect();
    }, RECONNECT_DELAY_MS);
    this.retryTimer.unref();
  }
}
