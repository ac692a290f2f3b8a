import {
  countLaneTasks,
  shiftTaskPositions,
  shiftTaskPositionsFrom,
  updateTask,
} from '../../db/repositories/tasks.js';
import type { Executor, TaskRow } from '../../db/schema.js';
import { clampInsertPosition, moveWithinList } from '../positions.js';

/*
 * Position changes of tasks. Callers hold the locks of every lane involved (see task-locking.ts), so
 * each lane's active tasks keep the positions 0..n-1 without gaps or duplicates.
 */

/** Takes an active task out of its lane's order: the tasks after it close the gap. */
export async function closeGap(db: Executor, laneId: string, position: number): Promise<void> {
  await shiftTaskPositionsFrom(db, laneId, position + 1, -1);
}

/** The position a task appended to the lane gets. */
export async function appendPosition(db: Executor, laneId: string): Promise<number> {
  return countLaneTasks(db, laneId);
}

export interface MoveOutcome {
  laneId: string;
  position: number;
  changed: boolean;
}

/**
 * Moves an active task to `requested` in `targetLaneId` (undefined or past the end: last). Within its
 * lane the tasks between the two positions shift by one; across lanes the source lane closes the gap
 * and the target lane opens one. Writes the task's new lane and position (and `updatedAt`) when they
 * change.
 */
export async function moveTask(
  db: Executor,
  task: TaskRow & { position: number },
  targetLaneId: string,
  requested: number | undefined,
  updatedAt: string,
): Promise<MoveOutcome> {
  let position: number;
  if (targetLaneId === task.lane_id) {
    const move = moveWithinList(task.position, requested, await countLaneTasks(db, targetLaneId));
    if (!move.shift) return { laneId: targetLaneId, position: task.position, changed: false };
    await shiftTaskPositions(db, targetLaneId, move.shift);
    position = move.to;
  } else {
    await closeGap(db, task.lane_id, task.position);
    position = clampInsertPosition(requested, await countLaneTasks(db, targetLaneId));
    await shiftTaskPositionsFrom(db, targetLaneId, position, 1);
  }
  await updateTask(db, task.id, { lane_id: targetLaneId, position, updated_at: updatedAt });
  return { laneId: targetLaneId, position, changed: true };
}
