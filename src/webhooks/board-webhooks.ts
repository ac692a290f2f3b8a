import type { Database } from '../db/database.js';
import { listWebhooksForBoard } from '../db/repositories/webhooks.js';
import type { Executor } from '../db/schema.js';

/** A webhook that may receive a board's events, with its decoded event filter. */
export interface BoardWebhook {
  id: string;
  events: readonly string[];
}

/** Boards whose matching is kept at most (a fresh map once exceeded). */
const MAX_BOARDS = 1000;

/**
 * Which active webhooks of unrevoked keys may receive a board's events, read once per board and kept
 * until keys, grants or webhooks may have changed, on any instance or process (the stamp of
 * db/key-changes.ts, the one the key-lookup cache uses). Every external-API change asks this inside its
 * transaction, so without it each change paid a query, on PostgreSQL a round trip. As for keys, a
 * change on another PostgreSQL instance applies here once its notification has arrived.
 */
export class BoardWebhooks {
  private readonly boards = new Map<string, readonly BoardWebhook[]>();
  private stamp: string | null = null;

  constructor(private readonly database: Database) {}

  async forBoard(db: Executor, boardId: string): Promise<readonly BoardWebhook[]> {
    const stamp = this.database.keyChanges.current();
    if (stamp !== this.stamp) {
      this.boards.clear();
      this.stamp = stamp;
    }
    const kept = stamp === null ? undefined : this.boards.get(boardId);
    if (kept) return kept;
    const rows = await listWebhooksForBoard(db, boardId);
    const webhooks = rows.map((row) => ({ id: row.id, events: JSON.parse(row.events) as string[] }));
    // Kept only if nothing changed while it was read (it may have read the state before the change).
    if (stamp !== null && this.database.keyChanges.current() === stamp && this.stamp === stamp) {
      if (this.boards.size >= MAX_BOARDS) this.boards.clear();
      this.boards.set(boardId, webhooks);
    }
    return webhooks;
  }
}
