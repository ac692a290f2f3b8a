import type { Database } from '../db/database.js';
import type { ListenerLog } from '../db/pg-listener.js';
import { FeedSubscriptions } from './feed-subscriptions.js';

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
  private readonly inboxes: FeedSubscriptions<InboxListener>;

  constructor(
    private readonly database: Database,
    log: ListenerLog,
  ) {
    this.inboxes = new FeedSubscriptions(database, log, {
      name: NOTIFICATION_CHANNEL,
      heard: (personId) => this.inboxes.tell(personId),
      // After a reconnection every open inbox may have missed a change: each re-reads.
      reconnected: () => {
        for (const personId of [...this.inboxes.keys()]) this.inboxes.tell(personId);
      },
    });
  }

  /** After commit: these people's inboxes changed. */
  publish(personIds: readonly string[]): void {
    const notifier = this.database.pgNotifier;
    for (const personId of personIds) {
      if (notifier) notifier.notify(NOTIFICATION_CHANNEL, personId);
      else this.inboxes.tell(personId);
    }
  }

  /** Calls `listener` whenever the person's inbox changes, on any instance. Returns unsubscribe. */
  subscribe(personId: string, listener: InboxListener): () => void {
    return this.inboxes.subscribe(personId, listener);
  }

  /** Resolves once the PostgreSQL LISTEN connection is up (at once on SQLite). */
  ready(): Promise<void> {
    return this.inboxes.ready();
  }

  get subscriptions(): number {
    return this.inboxes.size;
  }

  stop(): Promise<void> {
    return this.inboxes.stop();
  }
}
