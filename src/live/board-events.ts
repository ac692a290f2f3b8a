import { boardExists } from '../db/repositories/boards.js';
import { requireBoardPermission } from '../domain/access.js';
import type { Activity, ActivityType } from '../domain/activities/activity-types.js';
import type { Actor } from '../domain/actor.js';
import { notFound } from '../domain/errors.js';
import type { ServiceDeps } from '../domain/services.js';
import type { Card } from '../domain/views/cards.js';
import type { LaneView } from '../domain/views/lanes.js';
import { BoardStream } from './board-stream.js';
import type { ChangeListener } from './change-feed.js';

export type { BoardStream } from './board-stream.js';

/** What the stream needs of the change feed ("board B changed from activity N", from every instance). */
export interface ChangeSource {
  subscribe(boardId: string, listener: ChangeListener): () => void;
  /** Resolves once changes are being heard (the PostgreSQL LISTEN connection is up). */
  ready(): Promise<void>;
}

/** One activity as the live stream sends it, with the state it left behind where that is cheap. */
export interface LiveActivity extends Activity {
  /** The task's card now, for activities about a task; null when the task is gone. */
  card?: Card | null;
  /** The board's lanes now, for lane activities (a move shifts the others). */
  lanes?: LaneView[];
}

export type LiveEvent =
  | { id: number; type: ActivityType; data: LiveActivity }
  /** The client's position is unknown or past retention: reload the board, then carry on from `id`. */
  | { id: number; type: 'reset'; data: { activityId: number } };

export interface BoardEventsOptions {
  /**
   * How long a transaction may stay open between recording an activity and committing (PostgreSQL takes
   * ids at insert, so a smaller id can become visible after a larger one). A resumed stream re-sends
   * the activities this long before its position. Default 30 s on PostgreSQL, 0 on SQLite (one writer).
   */
  commitWindowMs?: number;
  /** Above this many activities to catch up on, a resumed stream sends `reset` instead. Default 1000. */
  maxCatchUp?: number;
}

/**
 * The live stream of a board (one per browser tab): every activity after a position, then each new one
 * as the change feed announces it. Events may repeat (after a reconnection, or around out-of-order
 * commits) but none is missed; each carries current state, so applying one twice is harmless.
 */
export class BoardEventsService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly feed: ChangeSource,
    private readonly options: BoardEventsOptions = {},
  ) {}

  /**
   * Opens a stream of the board after activity `after` (null: from now on). `send` is called in order,
   * never concurrently; `close()` on the result stops it.
   */
  async open(
    actor: Actor,
    boardId: string,
    after: number | null,
    send: (event: LiveEvent) => void,
    onError: (error: unknown) => void = () => {},
  ): Promise<BoardStream> {
    requireBoardPermission(actor, boardId, 'read');
    if (!(await boardExists(this.deps.database.kysely, boardId))) throw notFound('Board');
    await this.feed.ready();
    const windowMs = this.options.commitWindowMs ?? (this.deps.database.dialect === 'postgres' ? 30_000 : 0);
    const stream = new BoardStream(this.deps, boardId, send, onError, {
      windowMs,
      maxCatchUp: this.options.maxCatchUp ?? 1000,
    });
    await stream.start(after, this.feed);
    return stream;
  }
}
