import type { Static } from '@sinclair/typebox';
import { boardExists } from '../../db/repositories/boards.js';
import { lockTaskRow } from '../../db/repositories/task-locks.js';
import { taskExists } from '../../db/repositories/tasks.js';
import {
  bumpTaskLastTurnAt,
  findWatermarkRows,
  insertTurnsIgnoringDuplicates,
  listTurnsPage,
  type StoredTurn,
  type TurnSource,
} from '../../db/repositories/turns.js';
import type { Executor, TurnRow } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';
import { isoNow } from '../../lib/time.js';
import type { TurnListQuery as TurnListQuerySchema } from '../../schemas/turns.js';
import { DEFAULT_TURN_PAGE, MAX_TURN_PAGE } from '../../schemas/turns.js';
import { requireBoardPermission } from '../access.js';
import type { Actor } from '../actor.js';
import { invalid, notFound } from '../errors.js';
import type { ServiceDeps } from '../services.js';
import { inTransaction } from '../transaction.js';
import { normaliseTimestamp } from './timestamp.js';
import { checkCursorMatches, decodeTurnCursor, encodeTurnCursor } from './turn-cursor.js';
import { normaliseTurnBatch, type TurnInput, type TurnRole } from './turn-input.js';

export interface Turn {
  id: string;
  source: TurnSource;
  sourceId: string;
  role: TurnRole;
  content: string;
  toolUseOnly: boolean;
  capturedAt: string;
}

/** Per source, the last captured turn: greatest (capturedAt, sourceId). Sources without turns are absent. */
export type Watermarks = Partial<Record<TurnSource, { sourceId: string; capturedAt: string }>>;

export type TurnListQuery = Static<typeof TurnListQuerySchema>;

export interface TurnPage {
  turns: Turn[];
  watermarks: Watermarks;
  /** Passed back with the same filters, returns the next page; null when no more turns match. */
  cursor: string | null;
}

export { DEFAULT_TURN_PAGE, MAX_TURN_PAGE };

function toTurn(row: StoredTurn): Turn {
  return {
    id: row.id,
    source: row.source,
    sourceId: row.source_id,
    role: row.role,
    content: row.content,
    toolUseOnly: row.tool_use_only === 1,
    capturedAt: row.captured_at,
  };
}

/**
 * Captured conversation turns. Capture clients push batches and read the watermarks to know where to
 * resume; duplicates are absorbed by the (task, source, sourceId) unique constraint, so retries and
 * clients racing each other are harmless. Turns fire no webhook events; a batch that added turns
 * records one `turns.captured` activity (who pushed them, how many), which the board's live stream and
 * its "at work" mark read.
 */
export class TurnService {
  constructor(private readonly deps: ServiceDeps) {}

  /** Stores a batch of 1..100 turns; returns how many were new and the task's watermarks after it. */
  async recordTurns(
    actor: Actor,
    boardId: string,
    taskId: string,
    batch: readonly TurnInput[],
  ): Promise<{ inserted: number; watermarks: Watermarks }> {
    requireBoardPermission(actor, boardId, 'edit');
    const turns = normaliseTurnBatch(batch);
    return inTransaction(this.deps.database, async (tx) => {
      // Batches for one task run one after another (task row lock), so overlapping batches from two
      // clients cannot deadlock on each other's unique-index entries; ON CONFLICT absorbs the overlap.
      if (!(await lockTaskRow(tx, boardId, taskId))) throw await this.missing(tx.db, boardId);
      const createdAt = isoNow(this.deps.clock);
      const rows: TurnRow[] = turns.map((turn) => ({
        id: newId('turn'),
        task_id: taskId,
        board_id: boardId,
        source: turn.source,
        source_id: turn.sourceId,
        role: turn.role,
        content: turn.content,
        tool_use_only: turn.toolUseOnly ? 1 : 0,
        captured_at: turn.capturedAt,
        created_at: createdAt,
      }));
      const inserted = await insertTurnsIgnoringDuplicates(tx.db, rows);
      const latest = inserted.reduce<string | null>((max, at) => (max === null || at > max ? at : max), null);
      if (latest !== null) await bumpTaskLastTurnAt(tx.db, taskId, latest);
      if (inserted.length > 0) {
        // Not an event (turns fire none): the board's live stream and its "at work" mark read it.
        await this.deps.activities.record(tx, actor, {
          type: 'turns.captured',
          boardId,
          taskId,
          data: { task_id: taskId, source: turns[0]?.source ?? null, count: inserted.length },
        });
      }
      return { inserted: inserted.length, watermarks: await this.watermarksOf(tx.db, taskId) };
    });
  }

  /** One page of a task's turns in (capturedAt, id) order (or newest first), with the task's watermarks. */
  async listTurns(actor: Actor, boardId: string, taskId: string, query: TurnListQuery): Promise<TurnPage> {
    requireBoardPermission(actor, boardId, 'read');
    const limit = query.limit ?? DEFAULT_TURN_PAGE;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_TURN_PAGE) {
      throw invalid('limit', `must be an integer from 1 to ${MAX_TURN_PAGE}.`);
    }
    const source = query.source ?? null;
    const after = query.after === undefined ? null : normaliseTimestamp('after', query.after);
    const newestFirst = query.order === 'newest';
    const cursor = query.cursor === undefined ? null : decodeTurnCursor(query.cursor);
    if (cursor) checkCursorMatches(cursor, { taskId, source, after, newestFirst });

    const db = this.deps.database.kysely;
    if (!(await taskExists(db, boardId, taskId))) throw await this.missing(db, boardId);
    const rows = await listTurnsPage(db, {
      taskId,
      source,
      after,
      from: cursor && { capturedAt: cursor.capturedAt, id: cursor.id },
      limit: limit + 1,
      newestFirst,
    });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const next =
      rows.length > limit && last
        ? encodeTurnCursor({ taskId, source, after, newestFirst, capturedAt: last.captured_at, id: last.id })
        : null;
    return { turns: page.map(toTurn), watermarks: await this.watermarksOf(db, taskId), cursor: next };
  }

  async getWatermarks(actor: Actor, boardId: string, taskId: string): Promise<Watermarks> {
    requireBoardPermission(actor, boardId, 'read');
    const db = this.deps.database.kysely;
    if (!(await taskExists(db, boardId, taskId))) throw await this.missing(db, boardId);
    return this.watermarksOf(db, taskId);
  }

  private async watermarksOf(db: Executor, taskId: string): Promise<Watermarks> {
    const watermarks: Watermarks = {};
    for (const row of await findWatermarkRows(db, this.deps.database.dialect, taskId)) {
      watermarks[row.source] = { sourceId: row.source_id, capturedAt: row.captured_at };
    }
    return watermarks;
  }

  /** The 404 for a task that is not on the board: names the board when that is what is missing. */
  private async missing(db: Executor, boardId: string) {
    return (await boardExists(db, boardId)) ? notFound('Task') : notFound('Board');
  }
}
