import { sql } from 'kysely';
import { precompiled } from '../precompiled.js';
import type { Executor, NewTaskRow, TaskRow } from '../schema.js';
import { directSqlite } from '../sqlite-direct.js';
import { readRow } from '../sqlite-rows.js';
import { sqliteTaskPositions } from './task-positions.js';
import { countedPosition, laneOrder, numberPositions } from './task-ranks.js';

/** A stored task with its dense position (the index among the lane's active tasks; null when archived). */
export type TaskWithPosition = TaskRow & { position: number | null };

/** A task as the list shows it: the (possibly long) description, turn timestamp and rank are not read. */
export type TaskListRow = Omit<TaskWithPosition, 'description' | 'last_turn_at' | 'rank'>;

export interface TaskListFilter {
  laneId?: string;
  includeArchived: boolean;
  /** Lowercase; matched as a range on the short_id index. */
  shortIdPrefix?: string;
}

const LIST_COLUMNS = [
  'tasks.id',
  'tasks.board_id',
  'tasks.lane_id',
  'tasks.short_id',
  'tasks.title',
  'tasks.priority',
  'tasks.tags',
  'tasks.archived',
  'tasks.created_at',
  'tasks.updated_at',
  // Whether the list needs its assignees read at all (most boards assign few tasks).
  'tasks.assignee_count',
] as const;

/**
 * Board order: lane position, then the lane's active tasks by position, then its archived ones (oldest
 * first). Whole lanes are numbered as they are read; a short-id prefix keeps only some of a lane's tasks,
 * so each match counts its position.
 */
export async function listTasks(
  db: Executor,
  boardId: string,
  filter: TaskListFilter,
): Promise<TaskListRow[]> {
  if (filter.shortIdPrefix !== undefined) {
    return taskListQuery(db, boardId, filter).select(countedPosition.as('position')).execute();
  }
  const rows =
    filter.laneId === undefined
      ? await (filter.includeArchived ? boardListWithArchived : boardList)(db, boardId)
      : await (filter.includeArchived ? laneListWithArchived : laneList)(db, boardId, filter.laneId);
  return numberPositions(rows);
}

// The lists without a prefix filter are the hot ones: built and compiled once (precompiled.ts).
const boardList = precompiled(1, (db, boardId: string) =>
  taskListQuery(db, boardId, { includeArchived: false }),
);
const boardListWithArchived = precompiled(1, (db, boardId: string) =>
  taskListQuery(db, boardId, { includeArchived: true }),
);
const laneList = precompiled(2, (db, boardId: string, laneId: string) =>
  taskListQuery(db, boardId, { includeArchived: false, laneId }),
);
const laneListWithArchived = precompiled(2, (db, boardId: string, laneId: string) =>
  taskListQuery(db, boardId, { includeArchived: true, laneId }),
);

/** The list query without positions, unexecuted (tests read its plan). */
export function taskListQuery(db: Executor, boardId: string, filter: TaskListFilter) {
  let query = db
    .selectFrom('tasks')
    .innerJoin('lanes', 'lanes.id', 'tasks.lane_id')
    .select(LIST_COLUMNS)
    .where('tasks.board_id', '=', boardId);
  if (filter.laneId !== undefined) query = query.where('tasks.lane_id', '=', filter.laneId);
  if (!filter.includeArchived) query = query.where('tasks.archived', '=', 0);
  if (filter.shortIdPrefix !== undefined) {
    // A range instead of LIKE so the unique index on short_id serves it ('{' follows 'z'; the column is
    // binary-collated on both dialects).
    query = query
      .where('tasks.short_id', '>=', filter.shortIdPrefix)
      .where('tasks.short_id', '<', `${filter.shortIdPrefix}{`);
  }
  query = query.orderBy('lanes.position');
  // Active tasks only: plain (rank, id), the same order as laneOrder's, whose CASE terms cost the sort
  // about a third more on SQLite.
  if (!filter.includeArchived) return query.orderBy('tasks.rank').orderBy('tasks.id');
  return laneOrder.reduce((ordered, term) => ordered.orderBy(term), query);
}

const findTaskQuery = precompiled(2, (db, boardId: string, taskId: string) =>
  db
    .selectFrom('tasks')
    .selectAll()
    .select(countedPosition.as('position'))
    .where('id', '=', taskId)
    .where('board_id', '=', boardId),
);

/**
 * The row, and in its `position` column the connection's `data_version` as this same statement saw it:
 * the position cache learns from it whether another connection committed since the cache was filled,
 * exactly as of the row's snapshot, without a statement of its own (each autocommit statement takes and
 * releases the WAL read lock). The column is replaced by the position before the row leaves here.
 */
const FIND_TASK_ROW = `select *, (select data_version from pragma_data_version) as position
  from "tasks" where "id" = ? and "board_id" = ?`;

/**
 * The task with its position: on SQLite from the lane's cached positions (task-positions.ts), read with
 * the row in one statement; else counted through the rank index.
 */
export async function findTask(
  db: Executor,
  boardId: string,
  taskId: string,
): Promise<TaskWithPosition | undefined> {
  const direct = directSqlite(db);
  if (direct) {
    const row = readRow(direct.prepare(FIND_TASK_ROW), [taskId, boardId]) as
      | (TaskRow & { position: number | null })
      | undefined;
    if (row === undefined) return undefined;
    const position = sqliteTaskPositions(direct).positionOf(row, row.position as number);
    if (position !== undefined) {
      row.position = position;
      return row;
    }
  }
  return (await findTaskQuery(db, boardId, taskId))[0];
}

export async function findTaskLaneId(
  db: Executor,
  boardId: string,
  taskId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('tasks')
    .select('lane_id')
    .where('id', '=', taskId)
    .where('board_id', '=', boardId)
    .executeTakeFirst();
  return row?.lane_id;
}

export async function taskExists(db: Executor, boardId: string, taskId: string): Promise<boolean> {
  return (await findTaskLaneId(db, boardId, taskId)) !== undefined;
}

const insertTaskQuery = precompiled(
  13,
  (
    db,
    id: string,
    boardId: string,
    laneId: string,
    shortId: string,
    title: string,
    description: string,
    priority: number,
    tags: string,
    archived: number,
    rank: number,
    createdAt: string,
    updatedAt: string,
    lastTurnAt: string | null,
  ) =>
    db
      .insertInto('tasks')
      .values({
        id,
        board_id: boardId,
        lane_id: laneId,
        short_id: shortId,
        title,
        description,
        priority,
        tags,
        archived,
        rank,
        created_at: createdAt,
        updated_at: updatedAt,
        last_turn_at: lastTurnAt,
      })
      .onConflict((oc) => oc.column('short_id').doNothing())
      .returning('id'),
);

/**
 * Inserts the task unless its short id is taken ('short_id_taken', rare) or its lane is gone ('no_lane':
 * deleted by a transaction that committed after this one read it, PostgreSQL's foreign key violation).
 */
export async function insertTaskUnlessShortIdTaken(
  db: Executor,
  row: NewTaskRow,
): Promise<'inserted' | 'short_id_taken' | 'no_lane'> {
  let inserted: unknown[];
  try {
    inserted = await insertTaskQuery(
      db,
      row.id,
      row.board_id,
      row.lane_id,
      row.short_id,
      row.title,
      row.description,
      row.priority,
      row.tags,
      row.archived,
      row.rank,
      row.created_at,
      row.updated_at,
      row.last_turn_at ?? null,
    );
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === FOREIGN_KEY_VIOLATION) return 'no_lane';
    throw error;
  }
  return inserted.length === 1 ? 'inserted' : 'short_id_taken';
}

const FOREIGN_KEY_VIOLATION = '23503';

export async function updateTask(
  db: Executor,
  taskId: string,
  changes: Partial<
    Pick<
      TaskRow,
      'title' | 'description' | 'priority' | 'tags' | 'archived' | 'lane_id' | 'rank' | 'updated_at'
    >
  >,
): Promise<void> {
  await db.updateTable('tasks').set(changes).where('id', '=', taskId).execute();
}

export async function deleteTask(db: Executor, taskId: string): Promise<void> {
  await db.deleteFrom('tasks').where('id', '=', taskId).execute();
}

const activeLaneTasks = precompiled(1, (db, laneId: string) =>
  db
    .selectFrom('tasks')
    .select(sql<number>`cast(count(*) as integer)`.as('n'))
    .where('lane_id', '=', laneId)
    .where('archived', '=', 0),
);

/** The number of the lane's non-archived tasks: one range of the (lane_id, archived, rank) index. */
export async function countLaneTasks(db: Executor, laneId: string): Promise<number> {
  return Number((await activeLaneTasks(db, laneId))[0]?.n ?? 0);
}
