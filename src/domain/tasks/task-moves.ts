import { freshRanks, laneTasksAt, laneTasksFrom, setTaskRanks } from '../../db/repositories/task-ranks.js';
import { countLaneTasks, type TaskWithPosition, updateTask } from '../../db/repositories/tasks.js';
import type { Tx } from '../../db/transaction.js';
import { isoNow } from '../../lib/time.js';
import type { Actor } from '../actor.js';
import { clampInsertPosition, moveWithinList, rankBetween } from '../positions.js';
import type { ServiceDeps } from '../services.js';

/*
 * Rank changes of tasks. A task's position is where its rank sorts among the lane's active tasks, so a
 * move writes one rank (the others keep theirs). Callers hold the locks of every lane involved (see
 * task-locking.ts), so the neighbours cannot change under a move; appends by others, which take no
 * lock, always sort after every rank read here.
 */

/** The rank of a task appended to the lane (unarchiving). */
export async function appendRank(tx: Tx, laneId: string): Promise<number> {
  const [rank] = await freshRanks(tx, laneId, 1);
  return rank as number;
}

/**
 * The rank that puts `taskId` at dense position `to` among the lane's other active tasks: between its
 * neighbours there, or appended past the last. When no double lies between the neighbours (after many
 * moves into one gap), the tasks from `to` on are given fresh ranks after the task's, in order.
 */
async function rankAt(tx: Tx, laneId: string, taskId: string, to: number): Promise<number> {
  const neighbours = await laneTasksAt(tx.db, laneId, taskId, Math.max(0, to - 1), to === 0 ? 1 : 2);
  const [before, after] = to === 0 ? [undefined, neighbours[0]] : neighbours;
  if (after === undefined) return appendRank(tx, laneId);
  const rank = rankBetween(before?.rank, after.rank);
  if (rank !== null) return rank;
  const following = await laneTasksFrom(tx.db, laneId, taskId, after);
  const [own, ...ranks] = await freshRanks(tx, laneId, following.length + 1);
  await setTaskRanks(
    tx.db,
    following.map((task, i) => ({ id: task.id, rank: ranks[i] as number })),
  );
  return own as number;
}

export interface MoveOutcome {
  laneId: string;
  position: number;
  changed: boolean;
}

/**
 * Moves an active task to `requested` in `targetLaneId` (undefined or past the end: last). Writes the
 * task's new lane and rank (and `updatedAt`) when its lane or position changes.
 */
export async function moveTask(
  tx: Tx,
  task: TaskWithPosition & { position: number },
  targetLaneId: string,
  requested: number | undefined,
  updatedAt: string,
): Promise<MoveOutcome> {
  const count = await countLaneTasks(tx.db, targetLaneId);
  let position: number;
  if (targetLaneId === task.lane_id) {
    const move = moveWithinList(task.position, requested, count);
    if (!move.shift) return { laneId: targetLaneId, position: task.position, changed: false };
    position = move.to;
  } else {
    position = clampInsertPosition(requested, count);
  }
  const rank = await rankAt(tx, targetLaneId, task.id, position);
  await updateTask(tx.db, task.id, { lane_id: targetLaneId, rank, updated_at: updatedAt });
  return { laneId: targetLaneId, position, changed: true };
}

/**
 * Moves the task as moveTask does and records `task.moved` (with where it came from) when its lane or
 * position changed: what a move by a caller and a claim's move into a lane both do.
 */
export async function moveTaskRecorded(
  tx: Tx,
  deps: Pick<ServiceDeps, 'activities' | 'clock'>,
  actor: Actor,
  task: TaskWithPosition & { position: number },
  targetLaneId: string,
  requested: number | undefined,
): Promise<MoveOutcome> {
  const outcome = await moveTask(tx, task, targetLaneId, requested, isoNow(deps.clock));
  if (outcome.changed) {
    await deps.activities.record(tx, actor, {
      type: 'task.moved',
      boardId: task.board_id,
      taskId: task.id,
      data: {
        task_id: task.id,
        laneId: outcome.laneId,
        position: outcome.position,
        fromLaneId: task.lane_id,
        fromPosition: task.position,
      },
    });
  }
  return outcome;
}
