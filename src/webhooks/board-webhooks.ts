import type { Database } from '../db/database.js';
import { KeyChangeCache } from '../db/key-changes.js';
import { listWebhooksForBoard } from '../db/repositories/webhooks.js';
import type { Executor } from '../db/schema.js';

/** A webhook that may receive a board's events, with its decoded event filter. */
export interface BoardWebhook {
  id: string;
  events: readonly string[];
}

/** Boards whose matching is kept at most. */
const MAX_BOARDS = 1000;

/**
 * Which active webhooks of unrevoked keys may receive a board's events, read once per board and kept
 * until keys, grants or webhooks may have changed, on any instance or process (the stamp of
 * db/key-changes.ts, the one the key-lookup cache uses). Every external-API change asks this inside its
 * transaction, so without it each change paid a query, on PostgreSQL a round trip. As for keys, a
 * change on another PostgreSQL instance applies here once its notification has arrived.
 */
export class BoardWebhooks {
  private readonly boards: KeyChangeCache<readonly BoardWebhook[]>;

  constructor(database: Database) {
    this.boards = new KeyChangeCache(database.keyChanges, MAX_BOARDS);
  }

  async forBoard(db: Executor, boardId: string): Promise<readonly BoardWebhook[]> {
    const kept = this.boards.get(boardId);
    if (kept) return kept;
    const stamp = this.boards.readStamp();
    const rows = await listWebhooksForBoard(db, boardId);
    const webhooks = rows.map((row) => ({ id: row.id, events: JSON.parse(row.events) as string[] }));
    this.boards.keep(boardId, webhooks, stamp);
    return webhooks;
  }
}
