import { boardExists } from '../../db/repositories/boards.js';
import {
  closeLanePositionGap,
  countLanes,
  deleteLane,
  findLane,
  insertLane,
  listLanes,
  shiftLanePositions,
  updateLane,
} from '../../db/repositories/lanes.js';
import { lockRow } from '../../db/repositories/locks.js';
import type { LaneRow } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';
import { isoNow } from '../../lib/time.js';
import { requireBoardPermission } from '../access.js';
import type { Actor } from '../actor.js';
import { invalid, notFound } from '../errors.js';
import { moveWithinList } from '../positions.js';
import type { ServiceDeps } from '../services.js';
import { LIMITS, requiredText } from '../text-rules.js';
import { inTransaction, type Tx } from '../transaction.js';

export interface Lane {
  id: string;
  name: string;
  position: number;
  createdAt: string;
  updatedAt: string;
}

function toLane(row: LaneRow): Lane {
  return {
    id: row.id,
    name: row.name,
    position: row.position,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export class LaneService {
  constructor(private readonly deps: ServiceDeps) {}

  async listLanes(actor: Actor, boardId: string): Promise<Lane[]> {
    requireBoardPermission(actor, boardId, 'read');
    const db = this.deps.database.kysely;
    const rows = await listLanes(db, boardId);
    if (rows.length === 0 && !(await boardExists(db, boardId))) throw notFound('Board');
    return rows.map(toLane);
  }

  /** Appends a new lane to the board. */
  async createLane(actor: Actor, boardId: string, input: { name: string }): Promise<Lane> {
    requireBoardPermission(actor, boardId, 'edit');
    const name = requiredText('name', input.name, LIMITS.laneName);
    return inTransaction(this.deps.database, async (tx) => {
      await this.lockBoard(tx, boardId);
      const now = isoNow(this.deps.clock);
      const row: LaneRow = {
        id: newId('lane'),
        board_id: boardId,
        name,
        position: await countLanes(tx.db, boardId),
        created_at: now,
        updated_at: now,
      };
      await insertLane(tx.db, row);
      await this.deps.activities.record(tx, actor, {
        type: 'lane.created',
        boardId,
        data: { lane_id: row.id, name, position: row.position },
      });
      return toLane(row);
    });
  }

  /** Renames and/or moves a lane; the others shift so positions stay 0..n-1. */
  async updateLane(
    actor: Actor,
    boardId: string,
    laneId: string,
    input: { name?: string; position?: number },
  ): Promise<Lane> {
    requireBoardPermission(actor, boardId, 'edit');
    const name = input.name === undefined ? undefined : requiredText('name', input.name, LIMITS.laneName);
    if (input.position !== undefined && input.position < 0)
      throw invalid('position', 'must be 0 or greater.');
    return inTransaction(this.deps.database, async (tx) => {
      await this.lockBoard(tx, boardId);
      const lane = await findLane(tx.db, boardId, laneId);
      if (!lane) throw notFound('Lane');
      let position = lane.position;
      if (input.position !== undefined) {
        const move = moveWithinList(lane.position, input.position, await countLanes(tx.db, boardId));
        if (move.shift) await shiftLanePositions(tx.db, boardId, move.shift);
        position = move.to;
      }
      const renamed = name !== undefined && name !== lane.name;
      if (!renamed && position === lane.position) return toLane(lane);
      const updated = { ...lane, name: name ?? lane.name, position, updated_at: isoNow(this.deps.clock) };
      await updateLane(tx.db, laneId, { name: updated.name, position, updated_at: updated.updated_at });
      await this.deps.activities.record(tx, actor, {
        type: 'lane.updated',
        boardId,
        data: { lane_id: laneId, name: updated.name, position },
      });
      return toLane(updated);
    });
  }

  /** Deletes the lane with its tasks and closes the gap in the positions. */
  async deleteLane(actor: Actor, boardId: string, laneId: string): Promise<void> {
    requireBoardPermission(actor, boardId, 'edit');
    await inTransaction(this.deps.database, async (tx) => {
      await this.lockBoard(tx, boardId);
      const lane = await findLane(tx.db, boardId, laneId);
      if (!lane) throw notFound('Lane');
      await deleteLane(tx.db, laneId);
      await closeLanePositionGap(tx.db, boardId, lane.position);
      await this.deps.activities.record(tx, actor, {
        type: 'lane.deleted',
        boardId,
        data: { lane_id: laneId },
      });
    });
  }

  private async lockBoard(tx: Tx, boardId: string): Promise<void> {
    if (!(await lockRow(tx, 'boards', boardId))) throw notFound('Board');
  }
}
