import type { Database } from '../db/database.js';
import { type ListenerLog, PgListener } from '../db/pg-listener.js';
import { loggableError } from '../lib/loggable-error.js';

/** PostgreSQL channel on which every instance hears "person P's inbox changed" (payload: the id). */
export const NOTIFICATION_CHANNEL = 'laneboard_notifications';

/** Called when the inbox changed (or may have: the listener reconnected); the tab re-reads its count. */
export type InboxListener = () => void;

/** What the inbox stream follows (services and tests see only this). */
export interface InboxFeed {
  subscribe(personId: string, listener: InboxListener): () => void;
  ready(): Promise<void>;
}

/**
 * "This person's inbox changed" (a notification arrived, or one was read), for the person's open tabs.
 * Like the change feed: on SQLite an in-process emitter, on PostgreSQL a NOTIFY just after commit
 * (db/pg-notifier.ts) heard by every instance on one LISTEN connection, opened on the first subscription.
 * The message carries no content: a tab re-reads its count, which the session's rights guard.
 */
export class NotificationFeed implements InboxFeed {
  private readonly listeners = new Map<string, Set<InboxListener>>();
  private pgListener: PgListener | null = null;
  private stopped = false;

  constructor(
    private readonly database: Database,
    private readonly log: ListenerLog,
  ) {}

  /** After commit: these people's inboxes changed. */
  publish(personIds: readonly string[]): void {
    const notifier = this.database.pgNotifier;
    for (const personId of personIds) {
      if (notifier) notifier.notify(NOTIFICATION_CHANNEL, personId);
      else this.tell(personId);
    }
  }

  /** Calls `listener` whenever the person's inbox changes, on any instance. Returns unsubscribe. */
  subscribe(personId: string, listener: InboxListener): () => void {
    let set = this.listeners.get(personId);
    if (!set) {
      set = new Set();
      this.listeners.set(personId, set);
    }
    set.add(listener);
    this.ensureListening();
    return () => {
      const current = this.listeners.get(personId);
      current?.delete(listener);
      if (current?.size === 0) this.listeners.delete(personId);
    };
  }

  /** Resolves once the PostgreSQL LISTEN connection is up (at once on SQLite). */
  async ready(): Promise<void> {
    this.ensureListening();
    await this.pgListener?.connected();
  }

  get subscriptions(): number {
    let count = 0;
    for (const set of this.listeners.values()) count += set.size;
    return count;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.listeners.clear();
    await this.pgListener?.stop();
    this.pgListener = null;
  }

  private ensureListening(): void {
    const pool = this.database.pgPool;
    if (!pool || this.pgListener || this.stopped) return;
    this.pgListener = new PgListener(
      pool,
      NOTIFICATION_CHANNEL,
      (personId) => this.tell(personId),
      this.log,
      (reconnected) => {
        // After a reconnection every open inbox may have missed a change: each re-reads.
        if (reconnected) for (const personId of this.listeners.keys()) this.tell(personId);
      },
    );
    this.pgListener.start();
  }

  private tell(personId: string): void {
    for (const listener of [...(this.listeners.get(personId) ?? [])]) {
      try {
        listener();
      } catch (error) {
        this.log.warn({ err: loggableError(error) }, 'inbox listener failed');
      }
    }
  }
}
