import { sql } from 'kysely';
import type { Database } from '../database.js';
import type { BoardRow, Executor, LaneRow } from '../schema.js';
import { latestBoardActivityId } from './board-events.js';
import { countedPosition, laneOrder, numberPositions } from './task-ranks.js';

/** The activity a batch of captured turns records (src/domain/turns). */
export const TURNS_CAPTURED = 'turns.captured';

/** One card's row: the task's own columns plus its aggregates. */
export interface CardRow {
  id: string;
  short_id: string;
  title: string;
  lane_id: string;
  position: number | null;
  priority: number;
  tags: string;
  archived: number;
  updated_at: string;
}

export interface CountRow {
  task_id: string;
  total: number | string;
  done: number | string | null;
}

/**
 * Agent work on a task since the cut-off, one row per task, worker and kind of change: the activities
 * attributed to an agent (its key, any door), made through MCP, or capturing turns.
 */
export interface AgentWorkRow {
  task_id: string;
  actor_kind: 'api_key' | 'user' | 'agent' | 'system';
  actor_id: string | null;
  actor_name: string;
  type: string;
  /** The newest such change. */
  last_at: string;
  /** A `turns.captured` activity's data (its turns' `source`), else null. */
  turns: string | null;
}

export interface CardRows {
  tasks: CardRow[];
  todos: CountRow[];
  comments: CountRow[];
  /** Asset counts per task (`total`). */
  assets: CountRow[];
  /** Agent work on the tasks since the cut-off. */
  agentWork: AgentWorkRow[];
  /** The cards' assignees, in the order they were assigned. */
  assignees: CardAssigneeRow[];
}

export interface CardAssigneeRow {
  task_id: string;
  id: string;
  type: 'person' | 'agent';
  name: string;
}

export interface BoardViewRows extends CardRows {
  board: BoardRow;
  lanes: LaneRow[];
  /** The newest activity of the board visible to this read (0 when none). */
  activityId: number;
}

export interface CardQuery {
  /** ISO time: agent work at or after this puts the "at work" mark on a card. */
  agentSince: string;
  boardId: string;
  includeArchived: boolean;
  /** Only these tasks (the live stream's cards); all of the board's when absent. */
  taskIds?: readonly string[];
}

/**
 * Runs `read` on one consistent snapshot: on PostgreSQL a REPEATABLE READ transaction (every statement
 * sees the same committed state), on SQLite a transaction (one connection, writers serialised).
 */
export async function readSnapshot<T>(database: Database, read: (db: Executor) => Promise<T>): Promise<T> {
  const tx = database.kysely.transaction();
  const configured = database.dialect === 'postgres' ? tx.setIsolationLevel('repeatable read') : tx;
  return configured.execute((trx) => read(trx));
}

/**
 * Everything a board view shows, in a fixed number of set-based statements whatever the board's size
 * (no per-task query): board, lanes, cards, todo and comment aggregates joined through the board's
 * tasks (so the per-task indexes serve them), recent agent activities, and the newest activity id.
 * Returns null when the board does not exist.
 */
export async function readBoardView(db: Executor, query: CardQuery): Promise<BoardViewRows | null> {
  const { boardId } = query;
  const board = await db.selectFrom('boards').selectAll().where('id', '=', boardId).executeTakeFirst();
  if (!board) return null;
  const lanes = await db
    .selectFrom('lanes')
    .selectAll()
    .where('board_id', '=', boardId)
    .orderBy('position')
    .execute();

  const cards = await readCardRows(db, query);
  return {
    board,
    lanes,
    ...cards,
    activityId: await latestBoardActivityId(db, boardId),
  };
}

/**
 * The cards' rows: tasks, then todo, comment and asset aggregates, the assignees (one query) joined through the board's tasks (so the
 * per-task indexes serve them), and the agent work on them since the cut-off.
 */
export async function readCardRows(db: Executor, query: CardQuery): Promise<CardRows> {
  const { boardId, taskIds } = query;
  if (taskIds?.length === 0)
    return { tasks: [], todos: [], comments: [], assets: [], agentWork: [], assignees: [] };
  let tasks = db
    .selectFrom('tasks')
    .select(['id', 'short_id', 'title', 'lane_id', 'priority', 'tags', 'archived', 'updated_at'])
    .where('board_id', '=', boardId);
  if (!query.includeArchived) tasks = tasks.where('archived', '=', 0);
  if (taskIds) tasks = tasks.where('id', 'in', taskIds);
  const ordered = laneOrder.reduce((q, term) => q.orderBy(term), tasks.orderBy('lane_id'));
  // Chosen cards count their positions; the whole board's are numbered as they are read.
  const taskRows: CardRow[] = taskIds
    ? await ordered.select(countedPosition.as('position')).execute()
    : numberPositions(await ordered.execute());

  const archivedFilter = query.includeArchived ? sql`` : sql`and t.archived = 0`;
  const taskFilter = taskIds ? sql`and t.id in (${sql.join(taskIds)})` : sql``;
  const todos = await sql<CountRow>`
    select d.task_id, count(*) as total, sum(d.done) as done
    from tasks t join todos d on d.task_id = t.id
    where t.board_id = ${boardId} ${archivedFilter} ${taskFilter}
    group by d.task_id`.execute(db);
  const comments = await sql<CountRow>`
    select c.task_id, count(*) as total, null as done
    from tasks t join comments c on c.task_id = t.id
    where t.board_id = ${boardId} ${archivedFilter} ${taskFilter}
    group by c.task_id`.execute(db);
  const assets = await sql<CountRow>`
    select a.task_id, count(*) as total, null as done
    from tasks t join assets a on a.task_id = t.id
    where t.board_id = ${boardId} ${archivedFilter} ${taskFilter}
    group by a.task_id`.execute(db);

  const assignees = await sql<CardAssigneeRow>`
    select ta.task_id, ta.member_id as id, ta.member_type as type, coalesce(u.name, g.name, '') as name
    from tasks t join task_assignees ta on ta.task_id = t.id
      left join users u on u.id = ta.member_id left join agents g on g.id = ta.member_id
    where t.board_id = ${boardId} ${archivedFilter} ${taskFilter}
    order by ta.task_id, ta.created_at, ta.member_id`.execute(db);

  // Activities are in id order, which follows time: the window starts after the newest activity
  // created before it (read back from the newest id through the window), and the board's slice of it
  // is read through (board_id, id). Grouped, so a busy agent's hundreds of changes are a few rows.
  const agentWork = await sql<AgentWorkRow>`
    select a.task_id, a.actor_kind, a.actor_id, a.actor_name, a.type, max(a.created_at) as last_at,
      max(case when a.type = ${TURNS_CAPTURED} then a.data end) as turns
    from all_activities a
    where a.board_id = ${boardId} ${taskIds ? sql`and a.task_id in (${sql.join(taskIds)})` : sql``} and a.task_id is not null
      and (a.actor_kind = 'agent' or a.origin = 'mcp' or a.type = ${TURNS_CAPTURED})
      and a.id > coalesce((select w.id from all_activities w where w.created_at < ${query.agentSince}
        order by w.id desc limit 1), 0)
      and a.created_at >= ${query.agentSince}
    group by a.task_id, a.actor_kind, a.actor_id, a.actor_name, a.type`.execute(db);

  return {
    tasks: taskRows,
    todos: todos.rows,
    comments: comments.rows,
    assets: assets.rows,
    agentWork: agentWork.rows,
    assignees: assignees.rows,
  };
}
