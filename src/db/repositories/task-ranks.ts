import { type RawBuilder, sql } from 'kysely';
import { TASK_RANK_SEQUENCE } from '../migrations/008-task-ranks.js';
import { precompiled } from '../precompiled.js';
import type { Dialect, Executor } from '../schema.js';
import { directSqlite } from '../sqlite-direct.js';
import type { Tx } from '../transaction.js';
import { sqliteTaskPositions } from './task-positions.js';

/*
 * Task order. Tasks store a sortable `rank`; the dense position the API shows (0..n-1 among the lane's
 * non-archived tasks, null when archived) is computed when reading, in (rank, id) order. Appends draw a
 * rank above every other without any lock (a sequence on PostgreSQL; SQLite has one writer), so they
 * are never serialised; moves take the lane's lock and pick a rank between the neighbours.
 */

/**
 * The order positions count in, as ORDER BY terms after the lane: active tasks by (rank, id), then the
 * archived ones (for which both are null) by age.
 */
export const laneOrder = [
  sql`tasks.archived`,
  sql`case when tasks.archived = 0 then tasks.rank end`,
  sql`case when tasks.archived = 0 then tasks.id end`,
  sql`tasks.created_at`,
  sql`tasks.id`,
] as const;

/**
 * Gives rows that hold whole lanes, in lane order (laneOrder), their positions: each active row's index
 * among its lane's active rows. Cheaper than a window function, which SQLite runs through temporary
 * tables. Reads that keep only some rows of a lane (filters) select countedPosition instead.
 */
export function numberPositions<R extends { lane_id: string; archived: number }>(
  rows: R[],
): Array<R & { position: number | null }> {
  let lane: string | null = null;
  let next = 0;
  return rows.map((row) => {
    if (row.lane_id !== lane) {
      lane = row.lane_id;
      next = 0;
    }
    return Object.assign(row, { position: row.archived === 0 ? next++ : null });
  });
}

/** The dense position of one row of `tasks`: its lane's active tasks before it (a range of tasks_lane_rank_idx). */
export const countedPosition: RawBuilder<number | null> = sql<number | null>`case when tasks.archived = 0
  then (select cast(count(*) as integer) from tasks earlier
    where earlier.lane_id = tasks.lane_id and earlier.archived = 0
      and (earlier.rank, earlier.id) < (tasks.rank, tasks.id))
  end`;

const activeCount = sql<number>`(select cast(count(*) as integer) from tasks
  where tasks.lane_id = lanes.id and tasks.archived = 0)`;

/** PostgreSQL: a rank above every other, without a lock (the sequence of migration 008). */
const nextRank = sql<string>`nextval(${sql.lit(TASK_RANK_SEQUENCE)})`;

const appendSlotPostgres = precompiled(2, (db, boardId: string, laneId: string) =>
  db
    .selectFrom('lanes')
    .select([activeCount.as('position'), nextRank.as('rank')])
    .where('id', '=', laneId)
    .where('board_id', '=', boardId),
);

// SQLite runs one write transaction at a time, so the lane's last rank + 1 cannot be taken twice. Ranks
// start at 1, not 0: near 0 doubles are so dense that halving a gap would hardly ever run out.
const lastActiveRank = sql<number>`coalesce((select max(tasks.rank) from tasks
  where tasks.lane_id = lanes.id and tasks.archived = 0), 0) + 1`;

const appendSlotSqlite = precompiled(2, (db, boardId: string, laneId: string) =>
  db
    .selectFrom('lanes')
    .select([activeCount.as('position'), lastActiveRank.as('rank')])
    .where('id', '=', laneId)
    .where('board_id', '=', boardId),
);

// The position from the connection's cached lane instead (task-positions.ts): the count reads every
// active task of the lane, the rank one index entry.
const appendRankSqlite = precompiled(2, (db, boardId: string, laneId: string) =>
  db
    .selectFrom('lanes')
    .select(lastActiveRank.as('rank'))
    .where('id', '=', laneId)
    .where('board_id', '=', boardId),
);

/**
 * Where a task appended to the lane goes, in one round trip: the rank (above every rank in the lane)
 * and the position it is reported at (the lane's active tasks this transaction sees). Undefined when the
 * lane is not one of the board's. Takes no lock: two appends racing may both report the same position
 * (see docs/decisions.md, "Task ranks").
 */
export async function appendSlot(
  db: Executor,
  dialect: Dialect,
  boardId: string,
  laneId: string,
): Promise<{ position: number; rank: number } | undefined> {
  const direct = dialect === 'sqlite' ? directSqlite(db) : undefined;
  if (direct) {
    const row = (await appendRankSqlite(db, boardId, laneId))[0];
    if (!row) return undefined;
    const position = sqliteTaskPositions(direct).activeCount(laneId);
    if (position !== undefined) return { position, rank: Number(row.rank) };
  }
  const query = dialect === 'postgres' ? appendSlotPostgres : appendSlotSqlite;
  const row = (await query(db, boardId, laneId))[0];
  return row && { position: Number(row.position), rank: Number(row.rank) };
}

// The board's key share (see shareBoardKey) and the append's slot in one round trip: a create's
// round trips are most of its cost on PostgreSQL.
const boardSharedAppendSlotPostgres = precompiled(2, (db, boardId: string, laneId: string) =>
  db
    .selectFrom('boards')
    .leftJoin('lanes', (join) => join.onRef('lanes.board_id', '=', 'boards.id').on('lanes.id', '=', laneId))
    .select(['lanes.id as lane_id', activeCount.as('position'), nextRank.as('rank')])
    .where('boards.id', '=', boardId)
    .forKeyShare('boards'),
);

/**
 * The board's key share and the append's slot: 'no_board' when the board does not exist, 'no_lane' when
 * the lane is not one of its lanes. On PostgreSQL one statement: the board's KEY SHARE is taken as the
 * lane is read, so a lane deleted meanwhile (its delete holds the board FOR UPDATE) can still be seen
 * here; the insert's foreign key then refuses the task (insertTaskUnlessShortIdTaken reports it as
 * 'no_lane'). On SQLite the board, lane and rank in one statement, the position from the cached lane.
 */
export async function shareBoardAndAppendSlot(
  tx: Tx,
  boardId: string,
  laneId: string,
): Promise<{ position: number; rank: number } | 'no_board' | 'no_lane'> {
  if (tx.dialect === 'postgres') {
    const row = (await boardSharedAppendSlotPostgres(tx.db, boardId, laneId))[0];
    if (!row) return 'no_board';
    if (row.lane_id === null) return 'no_lane';
    return { position: Number(row.position), rank: Number(row.rank) };
  }
  const found = await boardLaneAndAppendRank(tx.db, boardId, laneId);
  if (found === 'no_board' || found === 'no_lane') return found;
  // The position from the connection's cached lane, or (when it cannot answer) counted with the rank.
  const direct = directSqlite(tx.db);
  const position = direct && sqliteTaskPositions(direct).activeCount(laneId);
  if (position !== undefined) return { position, rank: found.rank };
  const counted = (await appendSlotSqlite(tx.db, boardId, laneId))[0];
  return counted ? { position: Number(counted.position), rank: Number(counted.rank) } : 'no_lane';
}

// SQLite takes no row locks, so the board's key share is only the question whether it exists: asked
// with the lane and its next rank in one statement instead of two.
const boardLaneAndAppendRankSqlite = precompiled(2, (db, boardId: string, laneId: string) =>
  db
    .selectFrom('boards')
    .leftJoin('lanes', (join) => join.onRef('lanes.board_id', '=', 'boards.id').on('lanes.id', '=', laneId))
    .select(['lanes.id as lane_id', lastActiveRank.as('rank')])
    .where('boards.id', '=', boardId),
);

/** SQLite: whether the board and its lane exist, and the rank an append to the lane takes. */
export async function boardLaneAndAppendRank(
  db: Executor,
  boardId: string,
  laneId: string,
): Promise<{ rank: number } | 'no_board' | 'no_lane'> {
  const row = (await boardLaneAndAppendRankSqlite(db, boardId, laneId))[0];
  if (!row) return 'no_board';
  if (row.lane_id === null) return 'no_lane';
  return { rank: Number(row.rank) };
}

/** `count` fresh ranks in increasing order, each above every rank the lane's active tasks have. */
export async function freshRanks(tx: Tx, laneId: string, count: number): Promise<number[]> {
  if (tx.dialect === 'postgres') {
    const { rows } = await sql<{ rank: string }>`select nextval(${sql.lit(TASK_RANK_SEQUENCE)}) as rank
      from generate_series(1, ${count})`.execute(tx.db);
    return rows.map((row) => Number(row.rank)).sort((a, b) => a - b);
  }
  const row = await tx.db
    .selectFrom('tasks')
    .select((eb) => eb.fn.max('rank').as('last'))
    .where('lane_id', '=', laneId)
    .where('archived', '=', 0)
    .executeTakeFirst();
  const last = row?.last == null ? 0 : Number(row.last);
  return Array.from({ length: count }, (_, i) => last + 1 + i);
}

/**
 * The lane's active tasks other than `exceptTaskId` at dense positions from..from+limit-1 (in order): the
 * neighbours of a task being placed at `from`.
 */
export async function laneTasksAt(
  db: Executor,
  laneId: string,
  exceptTaskId: string,
  from: number,
  limit: number,
): Promise<Array<{ id: string; rank: number }>> {
  const rows = await activeTasksOtherThan(db, laneId, exceptTaskId).limit(limit).offset(from).execute();
  return rows.map((row) => ({ id: row.id, rank: Number(row.rank) }));
}

/** The lane's active tasks other than `exceptTaskId` ordered at or after `first` (in order). */
export async function laneTasksFrom(
  db: Executor,
  laneId: string,
  exceptTaskId: string,
  first: { id: string; rank: number },
): Promise<Array<{ id: string; rank: number }>> {
  const rows = await activeTasksOtherThan(db, laneId, exceptTaskId)
    .where(sql<boolean>`(rank, id) >= (${first.rank}, ${first.id})`)
    .execute();
  return rows.map((row) => ({ id: row.id, rank: Number(row.rank) }));
}

function activeTasksOtherThan(db: Executor, laneId: string, exceptTaskId: string) {
  return db
    .selectFrom('tasks')
    .select(['id', 'rank'])
    .where('lane_id', '=', laneId)
    .where('archived', '=', 0)
    .where('id', '<>', exceptTaskId)
    .orderBy('rank')
    .orderBy('id');
}

/** Sets the ranks of tasks (a renumbering after the doubles between two neighbours ran out). */
export async function setTaskRanks(
  db: Executor,
  ranks: ReadonlyArray<{ id: string; rank: number }>,
): Promise<void> {
  for (const { id, rank } of ranks) {
    await db.updateTable('tasks').set({ rank }).where('id', '=', id).execute();
  }
}
