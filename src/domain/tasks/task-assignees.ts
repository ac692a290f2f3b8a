import {
  type AssigneeRow,
  addToAssigneeCount,
  assigneesOfTask,
  deleteAssignee,
  findMember,
  insertAssignee,
  lockAssigneeCount,
} from '../../db/repositories/assignees.js';
import type { Executor } from '../../db/schema.js';
import { isoNow } from '../../lib/time.js';
import { requireBoardPermission } from '../access.js';
import { type Actor, memberOf } from '../actor.js';
import { DomainError, invalid, notFound } from '../errors.js';
import type { ServiceDeps } from '../services.js';
import { inTransaction, type Tx } from '../transaction.js';

/** At most this many assignees a task (the contract's limit). */
export const MAX_ASSIGNEES = 10;

/** A task's assignee: a person or an agent. */
export interface Assignee {
  id: string;
  type: 'person' | 'agent';
  name: string;
}

export interface TaskAssigneesView {
  /** The task's id. */
  id: string;
  assignees: Assignee[];
}

export const toAssignee = (row: AssigneeRow): Assignee => ({ id: row.id, type: row.type, name: row.name });

/**
 * Who works on a task. Every change takes the task row's lock first (lockAssigneeCount), keeps the
 * task's assignee count (which claiming guards) exact, and records `task.assigned` / `task.unassigned`
 * only for a real change.
 */
export class TaskAssignees {
  constructor(private readonly deps: ServiceDeps) {}

  /** Assigns the member; `created` is false when it already was (nothing recorded then). */
  async assign(
    actor: Actor,
    boardId: string,
    taskId: string,
    memberId: string,
  ): Promise<TaskAssigneesView & { created: boolean }> {
    requireBoardPermission(actor, boardId, 'edit');
    return inTransaction(this.deps.database, async (tx) => {
      const count = await lockAssigneeCount(tx, boardId, taskId);
      if (count === undefined) throw notFound('Task');
      const member = await findMember(tx.db, memberId);
      if (!member?.active) {
        throw invalid('memberId', 'must be the id of an active person (usr_...) or agent (agt_...).');
      }
      const assignee: Assignee = { id: member.id, type: member.type, name: member.name };
      const created = await this.add(tx, actor, boardId, taskId, assignee, count);
      return { id: taskId, assignees: await this.current(tx.db, taskId), created };
    });
  }

  /** Unassigns the member; not_found when it was not assigned. */
  async unassign(actor: Actor, boardId: string, taskId: string, memberId: string): Promise<void> {
    requireBoardPermission(actor, boardId, 'edit');
    await inTransaction(this.deps.database, async (tx) => {
      if ((await lockAssigneeCount(tx, boardId, taskId)) === undefined) throw notFound('Task');
      const member = (await assigneesOfTask(tx.db, taskId)).find((a) => a.id === memberId);
      if (!member || !(await deleteAssignee(tx.db, taskId, memberId))) throw notFound('Assignee');
      await addToAssigneeCount(tx.db, taskId, -1);
      await this.deps.activities.record(tx, actor, {
        type: 'task.unassigned',
        boardId,
        taskId,
        data: { task_id: taskId, assignee: toAssignee(member) },
      });
    });
  }

  /** The task's assignees in the order they were assigned. */
  async list(actor: Actor, boardId: string, taskId: string): Promise<Assignee[]> {
    requireBoardPermission(actor, boardId, 'read');
    return this.current(this.deps.database.kysely, taskId);
  }

  /**
   * Adds an assignee to a task whose row this transaction holds (`count`: its assignee count) and
   * records `task.assigned`; false when it already was assigned. Claiming uses it after taking the task.
   */
  async add(tx: Tx, actor: Actor, boardId: string, taskId: string, assignee: Assignee, count: number) {
    const added = await insertAssignee(tx.db, {
      task_id: taskId,
      board_id: boardId,
      member_id: assignee.id,
      member_type: assignee.type,
      created_at: isoNow(this.deps.clock),
    });
    if (!added) return false;
    if (count >= MAX_ASSIGNEES) {
      throw invalid('memberId', `cannot be added: a task has at most ${MAX_ASSIGNEES} assignees.`);
    }
    await addToAssigneeCount(tx.db, taskId, 1);
    await this.record(tx, actor, boardId, taskId, assignee);
    return true;
  }

  async record(tx: Tx, actor: Actor, boardId: string, taskId: string, assignee: Assignee): Promise<void> {
    await this.deps.activities.record(tx, actor, {
      type: 'task.assigned',
      boardId,
      taskId,
      data: { task_id: taskId, assignee },
    });
  }

  private async current(db: Executor, taskId: string): Promise<Assignee[]> {
    return (await assigneesOfTask(db, taskId)).map(toAssignee);
  }
}

/**
 * The member the caller is, for `assignee=me` and claiming: the key's agent, else its person, else the
 * signed-in person. A key of nobody (and the CLI operator) is nobody: a validation error on `field`.
 */
export function callerMember(actor: Actor, field: string): Assignee {
  const member = memberOf(actor);
  if (member) return { id: member.id, type: member.type, name: member.name };
  throw new DomainError(
    'validation_error',
    `\`${field}\`: this API key belongs to no agent or person, so it cannot stand for "me" or claim tasks. Use a key made for an agent or by a person.`,
  );
}
