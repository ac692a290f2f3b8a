import type { Database } from '../db/database.js';
import { type ListenerLog, PgListener } from '../db/pg-listener.js';
import { loggableError } from '../lib/loggable-error.js';

/**
 * The subscribers of a feed, by what they follow (a board, a person), and on PostgreSQL the one LISTEN
 * connection that hears every instance's notifications, opened on the first subscription (an instance
 * nobody watches holds no connection). What the change feed and the inbox feed share.
 */
export class FeedSubscriptions<L extends (...args: never[]) => void> {
  private readonly byKey = new Map<string, Set<L>>();
  private pgListener: PgListener | null = null;
  private stopped = false;

  constructor(
    private readonly database: Database,
    private readonly log: ListenerLog,
    private readonly channel: { name: string; heard(payload: string): void; reconnected(): void },
  ) {}

  /** Adds the listener of `key`. Returns unsubscribe. */
  subscribe(key: string, listener: L): () => void {
    let set = this.byKey.get(key);
    if (!set) {
      set = new Set();
      this.byKey.set(key, set);
    }
    set.add(listener);
    this.listen();
    return () => {
      const current = this.byKey.get(key);
      current?.delete(listener);
      if (current?.size === 0) this.byKey.delete(key);
    };
  }

  /** Calls each listener of `key`; one listener's failure is logged and does not stop the others. */
  tell(key: string, ...args: Parameters<L>): void {
    for (const listener of [...(this.byKey.get(key) ?? [])]) callSafely(listener, args, this.log, key);
  }

  /** The keys someone follows. */
  keys(): IterableIterator<string> {
    return this.byKey.keys();
  }

  get size(): number {
    let count = 0;
    for (const set of this.byKey.values()) count += set.size;
    return count;
  }

  /** Opens the PostgreSQL LISTEN connection unless it is open (nothing on SQLite, or once stopped). */
  listen(): void {
    const pool = this.database.pgPool;
    if (!pool || this.pgListener || this.stopped) return;
    this.pgListener = new PgListener(
      pool,
      this.channel.name,
      (payload) => this.channel.heard(payload),
      this.log,
      (reconnected) => {
        if (reconnected) this.channel.reconnected();
      },
    );
    this.pgListener.start();
  }

  /** Resolves once the PostgreSQL LISTEN connection is up (at once on SQLite); tests wait on it. */
  async ready(): Promise<void> {
    this.listen();
    await this.pgListener?.connected();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.byKey.clear();
    await this.pgListener?.stop();
    this.pgListener = null;
  }
}

/** Calls a subscriber: one subscriber's failure must not stop the others (or the committing request). */
export function callSafely<L extends (...args: never[]) => void>(
  listener: L,
  args: Parameters<L>,
  log: ListenerLog,
  key: string,
): void {
  try {
    listener(...args);
  } catch (error) {
    log.warn({ key, err: loggableError(error) }, 'feed listener failed');
  }
}
