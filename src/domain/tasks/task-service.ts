import type { Static } from '@sinclair/typebox';
import { assigneesOfBoard, assigneesOfTask, taskIdsAssignedTo } from '../../db/repositories/assignees.js';
import { boardExists } from '../../db/repositories/boards.js';
import { findLane } from '../../db/repositories/lanes.js';
import { shareBoardAndAppendSlot } from '../../db/repositories/task-ranks.js';
import {
  deleteTask,
  findTask,
  insertTaskUnlessShortIdTaken,
  listTasks,
  type TaskWithPosition,
  updateTask,
} from '../../db/repositories/tasks.js';
import type { Executor, TaskRow } from '../../db/schema.js';
import { newId, newShortId } from '../../lib/ids.js';
import { isoNow } from '../../lib/time.js';
import type {
  CreateTaskBody,
  MoveTaskBody,
  TaskListQuery as TaskListQuerySchema,
} from '../../schemas/tasks.js';
import { requireBoardPermission } from '../access.js';
import type { Actor } from '../actor.js';
import { DomainError, invalid, notFound } from '../errors.js';
import type { ServiceDeps } from '../services.js';
import { LIMITS, normaliseTags, optionalText, requiredText } from '../text-rules.js';
import type { Tx } from '../transaction.js';
import { callerMember, TaskAssignees, toAssignee } from './task-assignees.js';
import { changedFields, checkPriority, normaliseTaskChanges } from './task-changes.js';
import { TaskClaims } from './task-claims.js';
import { inTaskTransaction, lockTaskWithLanes, unknownLane } from './task-locking.js';
import { appendRank, moveTaskRecorded } from './task-moves.js';
import {
  type Task,
  type TaskChanges,
  type TaskPlacement,
  type TaskSummary,
  type TaskUpdateResult,
  toTask,
  toTaskSummary,
} from './task-views.js';

/** Request shapes, typed from the shared schemas that validate them. */
export type NewTask = Static<typeof CreateTaskBody>;
export type TaskListQuery = Static<typeof TaskListQuerySchema>;
/** `position`: index in the target lane; undefined or past the end appends. */
export type TaskMove = Static<typeof MoveTaskBody>;

// 36^8 short ids: a collision needs millions of tasks to become likely, and each retry is independent.
const SHORT_ID_ATTEMPTS = 8;

export class TaskService {
  /** Assigning and unassigning people and agents (task-assignees.ts). */
  readonly assignees: TaskAssignees;
  /** Claiming a task, or the next one of a lane (task-claims.ts). */
  readonly claims: TaskClaims;

  constructor(private readonly deps: ServiceDeps) {
    this.assignees = new TaskAssignees(deps);
    this.claims = new TaskClaims(deps, this.assignees);
  }

  /** Tasks in board order (lane position, then task position); archived ones only when asked for. */
  async listTasks(actor: Actor, boardId: string, query: TaskListQuery = {}): Promise<TaskSummary[]> {
    requireBoardPermission(actor, boardId, 'read');
    const db = this.deps.database.kysely;
    if (query.laneId !== undefined && !(await findLane(db, boardId, query.laneId))) {
      if (!(await boardExists(db, boardId))) throw notFound('Board');
      throw unknownLane();
    }
    const rows = await listTasks(db, boardId, {
      laneId: query.laneId,
      includeArchived: query.includeArchived === true,
      shortIdPrefix: query.shortIdPrefix?.toLowerCase(),
    });
    if (rows.length === 0 && !(await boardExists(db, boardId))) throw notFound('Board');
    // One query for the assignees of the whole list (and one for the filter), not one per task.
    const memberId = query.assignee === 'me' ? callerMember(actor, 'assignee').id : query.assignee;
    const kept = memberId === undefined ? rows : await keepAssignedTo(db, boardId, memberId, rows);
    const anyAssigned = kept.some((row) => row.assignee_count > 0);
    const assignees = anyAssigned ? await assigneesOfBoard(db, boardId) : new Map();
    return kept.map((row) => toTaskSummary(row, (assignees.get(row.id) ?? []).map(toAssignee)));
  }

  async getTask(actor: Actor, boardId: string, taskId: string): Promise<Task> {
    requireBoardPermission(actor, boardId, 'read');
    const db = this.deps.database.kysely;
    const task = await existingTask(db, boardId, taskId);
    return toTask(task, (await assigneesOfTask(db, taskId)).map(toAssignee));
  }

  /** Appends a new task to the lane. */
  async createTask(actor: Actor, boardId: string, input: NewTask): Promise<Task> {
    requireBoardPermission(actor, boardId, 'edit');
    const title = requiredText('title', input.title, LIMITS.taskTitle);
    const description =
      input.description === undefined
        ? ''
        : optionalText('description', input.description, LIMITS.taskDescription);
    const priority = input.priority === undefined ? 0 : checkPriority(input.priority);
    const tags = input.tags === undefined ? [] : normaliseTags(input.tags);
    return inTaskTransaction(this.deps.database, async (tx) => {
      // No lane lock: the rank sorts last without one, so appends to a lane run side by side.
      const slot = await shareBoardAndAppendSlot(tx, boardId, input.laneId);
      if (slot === 'no_board') throw notFound('Board');
      if (slot === 'no_lane') throw unknownLane();
      const now = isoNow(this.deps.clock);
      const row: TaskRow = {
        id: newId('task'),
        board_id: boardId,
        lane_id: input.laneId,
        short_id: '',
        title,
        description,
        priority,
        tags: JSON.stringify(tags),
        archived: 0,
        rank: slot.rank,
        created_at: now,
        updated_at: now,
        last_turn_at: null,
        assignee_count: 0,
      };
      await insertWithFreshShortId(tx, row);
      await this.deps.activities.record(tx, actor, {
        type: 'task.created',
        boardId,
        taskId: row.id,
        data: { task_id: row.id, title, laneId: row.lane_id },
        mentionable: description,
      });
      return toTask({ ...row, position: slot.position });
    });
  }

  /**
   * Applies the fields sent. Only values that differ from the stored ones count as changes: they alone
   * move `updatedAt` and appear in the `task.updated` event, which is not recorded when nothing changed.
   * Archiving takes the task out of its lane's order; unarchiving appends it to the lane again.
   */
  async updateTask(
    actor: Actor,
    boardId: string,
    taskId: string,
    input: TaskChanges,
  ): Promise<TaskUpdateResult> {
    requireBoardPermission(actor, boardId, 'edit');
    const wanted = normaliseTaskChanges(input);
    return inTaskTransaction(this.deps.database, async (tx, attempt) => {
      const task =
        wanted.archived === undefined
          ? await existingTask(tx.db, boardId, taskId)
          : await lockTaskWithLanes(tx, boardId, taskId, undefined, attempt > 1);
      const changes = changedFields(task, wanted);
      if (Object.keys(changes).length === 0) return { id: taskId, ...wanted, updatedAt: task.updated_at };

      const updatedAt = isoNow(this.deps.clock);
      const row: Parameters<typeof updateTask>[2] = { updated_at: updatedAt };
      if (changes.title !== undefined) row.title = changes.title;
      if (changes.description !== undefined) row.description = changes.description;
      if (changes.priority !== undefined) row.priority = changes.priority;
      if (changes.tags !== undefined) row.tags = JSON.stringify(changes.tags);
      // An archived task keeps its (now meaningless) rank: positions are counted among active tasks.
      if (changes.archived === true) row.archived = 1;
      else if (changes.archived === false) {
        row.archived = 0;
        row.rank = await appendRank(tx, task.lane_id);
      }
      await updateTask(tx.db, taskId, row);
      await this.deps.activities.record(tx, actor, {
        type: 'task.updated',
        boardId,
        taskId,
        data: { task_id: taskId, changes },
      });
      return { id: taskId, ...wanted, updatedAt };
    });
  }

  /**
   * Moves an active task within its lane or to another lane of the board. `task.moved` is recorded only
   * when the lane or the position actually changes; the response is the same either way.
   */
  async moveTask(actor: Actor, boardId: string, taskId: string, input: TaskMove): Promise<TaskPlacement> {
    requireBoardPermission(actor, boardId, 'edit');
    if (input.position !== undefined && (!Number.isInteger(input.position) || input.position < 0)) {
      throw invalid('position', 'must be an integer of 0 or more.');
    }
    return inTaskTransaction(this.deps.database, async (tx, attempt) => {
      const task = await lockTaskWithLanes(tx, boardId, taskId, input.laneId, attempt > 1);
      if (task.archived === 1 || task.position === null) {
        throw new DomainError(
          'validation_error',
          'An archived task cannot be moved: set `archived` to false first.',
        );
      }
      const moving = { ...task, position: task.position };
      const outcome = await moveTaskRecorded(tx, this.deps, actor, moving, input.laneId, input.position);
      return { id: taskId, laneId: outcome.laneId, position: outcome.position };
    });
  }

  /** Deletes the task with its comments, todos and turns (positions are counted, so no gap remains). */
  async deleteTask(actor: Actor, boardId: string, taskId: string): Promise<void> {
    requireBoardPermission(actor, boardId, 'edit');
    await inTaskTransaction(this.deps.database, async (tx, attempt) => {
      await lockTaskWithLanes(tx, boardId, taskId, undefined, attempt > 1);
      await deleteTask(tx.db, taskId);
      await this.deps.activities.record(tx, actor, {
        type: 'task.deleted',
        boardId,
        taskId,
        data: { task_id: taskId },
      });
    });
  }
}

async function keepAssignedTo<T extends { id: string }>(
  db: Executor,
  boardId: string,
  memberId: string,
  rows: T[],
): Promise<T[]> {
  const assigned = await taskIdsAssignedTo(db, boardId, memberId);
  return rows.filter((row) => assigned.has(row.id));
}

async function existingTask(db: Executor, boardId: string, taskId: string): Promise<TaskWithPosition> {
  const task = await findTask(db, boardId, taskId);
  if (!task) throw notFound('Task');
  return task;
}

/** Draws short ids until one is free; the unique index decides, so concurrent creates cannot collide. */
async function insertWithFreshShortId(tx: Tx, row: TaskRow): Promise<void> {
  for (let attempt = 0; attempt < SHORT_ID_ATTEMPTS; attempt++) {
    row.short_id = newShortId();
    const outcome = await insertTaskUnlessShortIdTaken(tx.db, row);
    if (outcome === 'inserted') return;
    if (outcome === 'no_lane') throw unknownLane();
  }
  throw new Error('No free short id found for a new task.');
}
