import {
  assigneesOfTask,
  insertAssignee,
  lockAssigneeCount,
  lockFirstUnassignedTask,
  takeUnassignedTask,
} from '../../db/repositories/assignees.js';
import { boardExists } from '../../db/repositories/boards.js';
import { findLane } from '../../db/repositories/lanes.js';
import { findTask } from '../../db/repositories/tasks.js';
import { isoNow } from '../../lib/time.js';
import { requireBoardPermission } from '../access.js';
import type { Actor } from '../actor.js';
import { DomainError, invalid, notFound } from '../errors.js';
import type { ServiceDeps } from '../services.js';
import type { Tx } from '../transaction.js';
import { type Assignee, callerMember, type TaskAssignees, toAssignee } from './task-assignees.js';
import { holdBoard, inTaskTransaction, lockLanes } from './task-locking.js';
import { moveTaskRecorded } from './task-moves.js';
import { type Task, toTask } from './task-views.js';

/** Candidates tried by one claim-next before it answers "none left" (each failed try means a lost race). */
const MAX_CANDIDATES = 100;

/**
 * Claiming work: the caller (the key's agent, else its person; the signed-in person in the web UI) takes
 * a task nobody holds. The hand-over is the conditional update of the task's assignee count from 0 to 1
 * (takeUnassignedTask), so however many callers race, on however many instances, one gets each task.
 */
export class TaskClaims {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly assignees: TaskAssignees,
  ) {}

  /** Takes the task if nobody holds it (the caller holding it already is fine); 409 naming the holders. */
  async claim(actor: Actor, boardId: string, taskId: string): Promise<Task> {
    requireBoardPermission(actor, boardId, 'edit');
    const me = callerMember(actor, 'Authorization');
    return inTaskTransaction(this.deps.database, async (tx) => {
      const count = await lockAssigneeCount(tx, boardId, taskId);
      if (count === undefined) throw notFound('Task');
      if (count > 0) {
        const holders = (await assigneesOfTask(tx.db, taskId)).map(toAssignee);
        if (!holders.some((h) => h.id === me.id)) {
          const names = holders.map((h) => `${h.name} (${h.id})`).join(', ');
          throw new DomainError('conflict', `The task is already assigned to ${names}.`);
        }
      } else if (!(await this.handOver(tx, actor, boardId, taskId, me))) {
        throw new DomainError('conflict', 'The task was claimed by someone else at the same time.');
      }
      return this.read(tx, boardId, taskId);
    });
  }

  /**
   * Takes the first unassigned, non-archived task of the lane by position and, with `moveToLaneId`,
   * appends it to that lane, all in one transaction; null when none is left.
   */
  async claimNext(
    actor: Actor,
    boardId: string,
    input: { laneId: string; moveToLaneId?: string },
  ): Promise<Task | null> {
    requireBoardPermission(actor, boardId, 'edit');
    const me = callerMember(actor, 'Authorization');
    const db = this.deps.database.kysely;
    const target = input.moveToLaneId;
    if (!(await findLane(db, boardId, input.laneId))) {
      if (!(await boardExists(db, boardId))) throw notFound('Board');
      throw invalid('laneId', 'must be the id of a lane of this board.');
    }
    if (target !== undefined && !(await findLane(db, boardId, target))) {
      throw invalid('moveToLaneId', 'must be the id of a lane of this board.');
    }
    return inTaskTransaction(this.deps.database, async (tx) => {
      // A move locks the lanes first, in the order every task write takes (board, lanes, then tasks).
      if (target !== undefined && target !== input.laneId) {
        await holdBoard(tx, boardId);
        const locked = await lockLanes(tx, [input.laneId, target]);
        if (!locked.has(input.laneId)) throw invalid('laneId', 'must be the id of a lane of this board.');
        if (!locked.has(target)) throw invalid('moveToLaneId', 'must be the id of a lane of this board.');
      }
      for (let tried = 0; tried < MAX_CANDIDATES; tried++) {
        const taskId = await lockFirstUnassignedTask(tx, input.laneId);
        if (taskId === undefined) return null;
        if (!(await this.handOver(tx, actor, boardId, taskId, me))) continue;
        if (target !== undefined && target !== input.laneId) {
          await this.moveClaimed(tx, actor, boardId, taskId, target);
        }
        return this.read(tx, boardId, taskId);
      }
      return null;
    });
  }

  /** Moves the count from 0 to 1 and assigns the caller; false when another caller got there first. */
  private async handOver(tx: Tx, actor: Actor, boardId: string, taskId: string, me: Assignee) {
    if (!(await takeUnassignedTask(tx.db, taskId))) return false;
    await insertAssignee(tx.db, {
      task_id: taskId,
      board_id: boardId,
      member_id: me.id,
      member_type: me.type,
      created_at: isoNow(this.deps.clock),
    });
    await this.assignees.record(tx, actor, boardId, taskId, me);
    return true;
  }

  private async moveClaimed(tx: Tx, actor: Actor, boardId: string, taskId: string, laneId: string) {
    const task = await findTask(tx.db, boardId, taskId);
    if (!task || task.position === null) throw notFound('Task');
    await moveTaskRecorded(tx, this.deps, actor, { ...task, position: task.position }, laneId, undefined);
  }

  private async read(tx: Tx, boardId: string, taskId: string): Promise<Task> {
    const task = await findTask(tx.db, boardId, taskId);
    if (!task) throw notFound('Task');
    return toTask(task, (await assigneesOfTask(tx.db, taskId)).map(toAssignee));
  }
}
