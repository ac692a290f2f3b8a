import { sql } from 'kysely';
import type { Executor } from '../schema.js';
import type { Tx } from '../transaction.js';

/** A task's assignee as lists show it. */
export interface AssigneeRow {
  task_id: string;
  id: string;
  type: 'person' | 'agent';
  name: string;
}

/** A person or agent that may be assigned, with whether it is still active. */
export interface MemberRow {
  id: string;
  type: 'person' | 'agent';
  name: string;
  active: boolean;
}

function assigneesQuery(db: Executor) {
  return db
    .selectFrom('task_assignees as ta')
    .leftJoin('users as u', 'u.id', 'ta.member_id')
    .leftJoin('agents as a', 'a.id', 'ta.member_id')
    .select([
      'ta.task_id',
      'ta.member_id as id',
      'ta.member_type as type',
      (eb) => eb.fn.coalesce('u.name', 'a.name', sql<string>`''`).as('name'),
    ])
    .orderBy('ta.task_id')
    .orderBy('ta.created_at')
    .orderBy('ta.member_id');
}

/** Every assignee of the board's tasks, grouped by task: one set-based query for a whole task list. */
export async function assigneesOfBoard(db: Executor, boardId: string): Promise<Map<string, AssigneeRow[]>> {
  return grouped(await assigneesQuery(db).where('ta.board_id', '=', boardId).execute());
}

export async function assigneesOfTask(db: Executor, taskId: string): Promise<AssigneeRow[]> {
  return assigneesQuery(db).where('ta.task_id', '=', taskId).execute();
}

function grouped(rows: AssigneeRow[]): Map<string, AssigneeRow[]> {
  const byTask = new Map<string, AssigneeRow[]>();
  for (const row of rows) {
    const list = byTask.get(row.task_id);
    if (list) list.push(row);
    else byTask.set(row.task_id, [row]);
  }
  return byTask;
}

/** The board's tasks assigned to this member (the list's `assignee` filter). */
export async function taskIdsAssignedTo(
  db: Executor,
  boardId: string,
  memberId: string,
): Promise<Set<string>> {
  const rows = await db
    .selectFrom('task_assignees')
    .select('task_id')
    .where('board_id', '=', boardId)
    .where('member_id', '=', memberId)
    .execute();
  return new Set(rows.map((r) => r.task_id));
}

/** A person (`usr_`) or agent (`agt_`) by id, active or not. */
export async function findMember(db: Executor, id: string): Promise<MemberRow | undefined> {
  if (id.startsWith('agt_')) {
    const agent = await db
      .selectFrom('agents')
      .select(['id', 'name', 'active'])
      .where('id', '=', id)
      .executeTakeFirst();
    return agent && { id: agent.id, type: 'agent', name: agent.name, active: agent.active === 1 };
  }
  if (id.startsWith('usr_')) {
    const user = await db
      .selectFrom('users')
      .select(['id', 'name', 'active'])
      .where('id', '=', id)
      .executeTakeFirst();
    return user && { id: user.id, type: 'person', name: user.name, active: user.active === 1 };
  }
  return undefined;
}

/**
 * The task's assignee count, its row held until the transaction ends on PostgreSQL: every change to a
 * task's assignees takes this lock first, so assigning, unassigning and claiming never deadlock and the
 * count stays exact. Undefined when the task is not on the board.
 */
export async function lockAssigneeCount(
  tx: Tx,
  boardId: string,
  taskId: string,
): Promise<number | undefined> {
  const query = tx.db
    .selectFrom('tasks')
    .select('assignee_count')
    .where('id', '=', taskId)
    .where('board_id', '=', boardId);
  // FOR NO KEY UPDATE: inserts that only reference the task (comments, todos, turns) need not wait.
  const row = await (tx.dialect === 'postgres' ? query.forNoKeyUpdate() : query).executeTakeFirst();
  return row?.assignee_count;
}

/**
 * Takes an unassigned task: moves its assignee count from 0 to 1 only if it is still 0. Whoever changes
 * the row first wins; on PostgreSQL a second claimer waits for the first to commit and then finds the
 * count moved (the condition is checked again on the committed row), so a task is never handed to two.
 */
export async function takeUnassignedTask(db: Executor, taskId: string): Promise<boolean> {
  const result = await db
    .updateTable('tasks')
    .set((eb) => ({ assignee_count: eb('assignee_count', '+', 1) }))
    .where('id', '=', taskId)
    .where('assignee_count', '=', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function addToAssigneeCount(db: Executor, taskId: string, delta: 1 | -1): Promise<void> {
  await db
    .updateTable('tasks')
    .set((eb) => ({ assignee_count: eb('assignee_count', '+', delta) }))
    .where('id', '=', taskId)
    .execute();
}

/** Adds the assignee unless it is already there; whether it was added. */
export async function insertAssignee(
  db: Executor,
  row: {
    task_id: string;
    board_id: string;
    member_id: string;
    member_type: 'person' | 'agent';
    created_at: string;
  },
): Promise<boolean> {
  const inserted = await db
    .insertInto('task_assignees')
    .values(row)
    .onConflict((oc) => oc.columns(['task_id', 'member_id']).doNothing())
    .returning('task_id')
    .execute();
  return inserted.length === 1;
}

/** Removes the assignee; whether it was there. */
export async function deleteAssignee(db: Executor, taskId: string, memberId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('task_assignees')
    .where('task_id', '=', taskId)
    .where('member_id', '=', memberId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/**
 * The first unassigned, non-archived task of the lane by position, for claim-next. On PostgreSQL its row
 * is locked, skipping rows other claimers hold, so concurrent claimers take different tasks instead of
 * queueing behind one; takeUnassignedTask still guards the hand-over.
 */
export async function lockFirstUnassignedTask(tx: Tx, laneId: string): Promise<string | undefined> {
  const query = tx.db
    .selectFrom('tasks')
    .select('id')
    .where('lane_id', '=', laneId)
    .where('archived', '=', 0)
    .where('assignee_count', '=', 0)
    .orderBy('rank')
    .orderBy('id')
    .limit(1);
  const row = await (tx.dialect === 'postgres'
    ? query.forNoKeyUpdate().skipLocked()
    : query
  ).executeTakeFirst();
  return row?.id;
}
