import type { Database } from '../../db/database.js';
import { findLane } from '../../db/repositories/lanes.js';
import { lockBoardLaneOrders, lockLaneOrder, shareBoardKey } from '../../db/repositories/task-locks.js';
import { findTask, findTaskLaneId, type TaskWithPosition } from '../../db/repositories/tasks.js';
import { DomainError, invalid, notFound } from '../errors.js';
import { inTransaction, type Tx } from '../transaction.js';

/*
 * Lock order of every task write: the board's key (shared), then the lanes involved in id order, then
 * task rows. Lane and board operations take the board row exclusively first, so they and task writes
 * never wait on each other in opposite orders. Appends take no lane lock (see task-ranks.ts); the lane
 * lock serialises only the writes that pick a rank between neighbours.
 */

/** The task left its lane between the unlocked read and the lock: the transaction is run again. */
class TaskLaneChanged extends Error {}

const MAX_ATTEMPTS = 5;

/**
 * A transaction for task writes that is also retried when the task changed lane under it (deadlocks and
 * serialization failures are retried by every transaction, in db/transaction.ts). The work learns which
 * attempt it is, so a retry can lock more broadly (see lockTaskWithLanes).
 */
export async function inTaskTransaction<T>(
  database: Database,
  work: (tx: Tx, attempt: number) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await inTransaction(database, (tx) => work(tx, attempt));
    } catch (error) {
      if (!(error instanceof TaskLaneChanged)) throw error;
      if (attempt >= MAX_ATTEMPTS) {
        throw new DomainError(
          'conflict',
          'The task was changed by other requests at the same time. Retry the request.',
        );
      }
    }
  }
}

/** Shares the board's key; a missing board is reported as the missing parent of whatever was asked. */
export async function holdBoard(tx: Tx, boardId: string, missing = 'Board'): Promise<void> {
  if (!(await shareBoardKey(tx, boardId))) throw notFound(missing);
}

/** Locks lanes in id order (a fixed order, so two writers never wait on each other crosswise). */
export async function lockLanes(tx: Tx, laneIds: readonly string[]): Promise<Set<string>> {
  const existing = new Set<string>();
  for (const laneId of [...new Set(laneIds)].sort()) {
    if (await lockLaneOrder(tx, laneId)) existing.add(laneId);
  }
  return existing;
}

export const unknownLane = (): DomainError => invalid('laneId', 'must be the id of a lane of this board.');

/**
 * Shares the board, locks the task's lane and, for a move, the target lane (which must be a lane of
 * this board), then reads the task under those locks, so its lane and position cannot change until the
 * transaction ends. With `wholeBoard` (a retry after the task changed lane under us, which repeats when
 * many requests move one task at once) every lane of the board is locked instead, in the same id order:
 * the task cannot change lane between the read and the lock, so the retry cannot be lost the same way.
 */
export async function lockTaskWithLanes(
  tx: Tx,
  boardId: string,
  taskId: string,
  targetLaneId?: string,
  wholeBoard = false,
): Promise<TaskWithPosition> {
  await holdBoard(tx, boardId, 'Task');
  if (wholeBoard) {
    const lanes = await lockBoardLaneOrders(tx, boardId);
    if (targetLaneId !== undefined && !lanes.has(targetLaneId)) throw unknownLane();
    const task = await findTask(tx.db, boardId, taskId);
    if (!task) throw notFound('Task');
    return task;
  }
  const laneId = await findTaskLaneId(tx.db, boardId, taskId);
  if (laneId === undefined) throw notFound('Task');
  const laneIds = [laneId];
  if (targetLaneId !== undefined && targetLaneId !== laneId) {
    if (!(await findLane(tx.db, boardId, targetLaneId))) throw unknownLane();
    laneIds.push(targetLaneId);
  }
  const locked = await lockLanes(tx, laneIds);
  if (targetLaneId !== undefined && !locked.has(targetLaneId)) throw unknownLane();
  const task = await findTask(tx.db, boardId, taskId);
  if (!task) throw notFound('Task');
  if (task.lane_id !== laneId) throw new TaskLaneChanged();
  return task;
}
