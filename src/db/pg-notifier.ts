import type pg from 'pg';

/*
 * PostgreSQL serialises the commits of all transactions that NOTIFY: the committing transaction holds a
 * database-wide lock while it commits, WAL flush included. Measured with 32 clients creating tasks, a
 * NOTIFY in each create's transaction made creates 40 % slower. So the wake-ups ("board B changed",
 * "deliveries queued") are sent just after commit instead, from a transaction that only notifies (no
 * WAL, nothing to flush), and batched: while one send is in flight, the next ones wait and go out
 * together in one statement. A crash between a commit and its notification loses only the wake-up:
 * dispatchers poll, and a live board catches up on its next change or reconnect.
 */
export class PgNotifier {
  private queued = new Map<string, Set<string>>();
  private sending: Promise<void> | null = null;

  constructor(
    private readonly pool: pg.Pool,
    private readonly onError: (error: unknown, channels: string[]) => void,
  ) {}

  /** Sends `payload` on `channel` soon (identical pending notifications are sent once). */
  notify(channel: string, payload: string): void {
    let payloads = this.queued.get(channel);
    if (!payloads) {
      payloads = new Set();
      this.queued.set(channel, payloads);
    }
    payloads.add(payload);
    if (!this.sending) this.sending = this.sendAll();
  }

  /** Resolves once everything notified so far has been sent (tests, shutdown). */
  async flushed(): Promise<void> {
    while (this.sending) await this.sending;
  }

  private async sendAll(): Promise<void> {
    try {
      while (this.queued.size > 0) {
        const batch = this.queued;
        this.queued = new Map();
        const channels: string[] = [];
        const payloads: string[] = [];
        for (const [channel, set] of batch) {
          for (const payload of set) {
            channels.push(channel);
            payloads.push(payload);
          }
        }
        try {
          await this.pool.query('select pg_notify(c, p) from unnest($1::text[], $2::text[]) as n(c, p)', [
            channels,
            payloads,
          ]);
        } catch (error) {
          this.onError(error, [...batch.keys()]);
        }
      }
    } finally {
      this.sending = null;
    }
  }
}
