import { readBoardView, readSnapshot } from '../../db/repositories/board-view.js';
import { listTagColors } from '../../db/repositories/tag-colors.js';
import { requireBoardPermission } from '../access.js';
import type { Actor } from '../actor.js';
import { notFound } from '../errors.js';
import type { ServiceDeps } from '../services.js';
import { agentSince, type Card, toCards } from '../views/cards.js';
import { type LaneView, toLaneView } from '../views/lanes.js';

export interface BoardView {
  board: { id: string; name: string; createdAt: string; updatedAt: string };
  /** Ordered by position; `taskCount` counts non-archived tasks. */
  lanes: Array<LaneView & { taskCount: number }>;
  /** Ordered by lane, then position (archived ones, when asked for, last within their lane). */
  tasks: Card[];
  /** The tag colours chosen on the board, by tag (others show their derived colour). */
  tagColors: Array<{ tag: string; color: string }>;
  /**
   * The newest activity of the board this snapshot includes: open the live stream after it
   * (`?after=` or `Last-Event-ID`) to receive every later change.
   */
  activityId: number;
}

/** The board view of the web UI: the whole board with card data, read on one snapshot. */
export class BoardViewService {
  constructor(private readonly deps: ServiceDeps) {}

  async getView(actor: Actor, boardId: string, options: { archived?: boolean } = {}): Promise<BoardView> {
    requireBoardPermission(actor, boardId, 'read');
    const since = agentSince(this.deps.clock.now());
    const read = await readSnapshot(this.deps.database, async (db) => {
      const board = await readBoardView(db, {
        boardId,
        includeArchived: options.archived === true,
        agentSince: since,
      });
      return board && { board, tagColors: await listTagColors(db, boardId) };
    });
    if (!read) throw notFound('Board');
    const rows = read.board;
    const tasks = toCards(rows);
    const laneCounts = new Map<string, number>();
    for (const card of tasks) {
      if (!card.archived) laneCounts.set(card.laneId, (laneCounts.get(card.laneId) ?? 0) + 1);
    }
    return {
      board: {
        id: rows.board.id,
        name: rows.board.name,
        createdAt: rows.board.created_at,
        updatedAt: rows.board.updated_at,
      },
      lanes: rows.lanes.map((lane) => ({ ...toLaneView(lane), taskCount: laneCounts.get(lane.id) ?? 0 })),
      tasks,
      tagColors: read.tagColors,
      activityId: rows.activityId,
    };
  }
}
