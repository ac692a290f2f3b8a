import type { Database } from '../db/database.js';
import type { ListenerLog } from '../db/pg-listener.js';
import type { ActivityConsumer, CommittedActivity } from '../domain/activities/activity-types.js';
import { callSafely, FeedSubscriptions } from './feed-subscriptions.js';

/** PostgreSQL channel on which every instance hears "board B changed". */
export const CHANGE_CHANNEL = 'laneboard_changes';

/**
 * "Board `boardId` changed: activities `fromId`..`toId` were committed" (one transaction's activities
 * on that board). `null` ids mean "changes may have been missed" (the PostgreSQL listener reconnected):
 * re-read from the last id seen.
 */
export interface BoardChange {
  boardId: string;
  fromId: number | null;
  toId: number | null;
}

export type ChangeListener = (change: BoardChange) => void;

/**
 * PostgreSQL: how long committed changes are gathered before they are notified. Each notification is a
 * transaction of its own on the server and a re-read for every listening stream: at 10 ms they were
 * about half of what an activity cost a task create (CPU +9 to +15 % against +4 to +6 % at 50 ms), and
 * 50 ms is still far below what a person watching a board notices.
 */
const NOTIFY_WINDOW_MS = 50;

type Range = { fromId: number; toId: number };

/**
 * A consumer of the activity, like webhook fan-out: once a transaction has committed, publishes which
 * boards changed up to which activity. On SQLite (one process owns the file) it is an in-process
 * emitter; on PostgreSQL it NOTIFYs every instance (this one included) just after the commit and
 * LISTENs on one dedicated connection, opened on the first subscription.
 *
 * On PostgreSQL activity ids are taken when the commit statement inserts them and become visible once
 * it has committed, so a smaller id can still appear after a larger one. A reader therefore reads
 * `id >= fromId` on each notification and skips ids it has already seen; see docs/architecture.md
 * ("Change feed") for resuming from a Last-Event-ID.
 */
export class ChangeFeed implements ActivityConsumer {
  private readonly boards: FeedSubscriptions<ChangeListener>;
  /** Listeners of every board's changes (the activity stream of integrations). */
  private readonly anyBoard = new Set<ChangeListener>();
  /** PostgreSQL: committed ranges per board not yet notified, and the timer that will. */
  private unsent = new Map<string, Range>();
  private sendTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly database: Database,
    private readonly log: ListenerLog,
  ) {
    this.boards = new FeedSubscriptions(database, log, {
      name: CHANGE_CHANNEL,
      heard: (payload) => this.heard(payload),
      // After a reconnection, subscribers may have missed changes: tell them to re-read.
      reconnected: () => {
        const boardIds = [...this.boards.keys()];
        for (const boardId of boardIds) this.publish({ boardId, fromId: null, toId: null });
        if (boardIds.length === 0) this.publish({ boardId: '', fromId: null, toId: null });
      },
    });
  }

  /** A transaction committed these activities: tell this process's subscribers, or every instance. */
  onCommitted(activities: readonly CommittedActivity[]): void {
    if (this.database.dialect === 'sqlite') {
      const perBoard = new Map<string, Range>();
      for (const activity of activities) widen(perBoard, activity.boardId, activity.id);
      for (const [boardId, range] of perBoard) this.publish({ boardId, ...range });
      return;
    }
    for (const activity of activities) widen(this.unsent, activity.boardId, activity.id);
    // Sent after commit, not by NOTIFY inside the transaction (see pg-notifier.ts). A short window
    // merges the commits of a busy board into one notification per board (and one statement): fewer
    // notifications to send, and fewer re-reads for every listening stream.
    this.sendTimer ??= setTimeout(() => this.sendUnsent(), NOTIFY_WINDOW_MS);
  }

  private sendUnsent(): void {
    if (this.sendTimer) clearTimeout(this.sendTimer);
    this.sendTimer = null;
    const ranges = this.unsent;
    this.unsent = new Map();
    for (const [boardId, range] of ranges) {
      this.database.pgNotifier?.notify(CHANGE_CHANNEL, `${range.fromId} ${range.toId} ${boardId}`);
    }
  }

  /** Calls `listener` for every committed change of the board, from any instance. Returns unsubscribe. */
  subscribe(boardId: string, listener: ChangeListener): () => void {
    return this.boards.subscribe(boardId, listener);
  }

  /** Calls `listener` for every committed change of any board, from any instance. Returns unsubscribe. */
  subscribeAll(listener: ChangeListener): () => void {
    this.anyBoard.add(listener);
    this.boards.listen();
    return () => {
      this.anyBoard.delete(listener);
    };
  }

  /** Subscriptions in this process: one per open live stream (GET /metrics counts them). */
  get subscriptions(): number {
    // Activity streams (and long polls while they wait) follow every board.
    return this.anyBoard.size + this.boards.size;
  }

  /** Resolves once the PostgreSQL LISTEN connection is up (at once on SQLite); tests wait on it. */
  ready(): Promise<void> {
    return this.boards.ready();
  }

  async stop(): Promise<void> {
    this.sendUnsent();
    this.anyBoard.clear();
    await this.boards.stop();
  }

  private heard(payload: string): void {
    const [from, to, boardId] = payload.split(' ');
    if (!boardId) return;
    this.publish({ boardId, fromId: Number(from), toId: Number(to) });
  }

  private publish(change: BoardChange): void {
    this.boards.tell(change.boardId, change);
    for (const listener of [...this.anyBoard]) callSafely(listener, [change], this.log, change.boardId);
  }
}

/** Adds activity `id` to its board's range. */
function widen(ranges: Map<string, Range>, boardId: string, id: number): void {
  const range = ranges.get(boardId);
  if (range) {
    range.fromId = Math.min(range.fromId, id);
    range.toId = Math.max(range.toId, id);
  } else {
    ranges.set(boardId, { fromId: id, toId: id });
  }
}
