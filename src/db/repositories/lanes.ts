import { precompiled } from '../precompiled.js';
import type { Executor, LaneRow, ShiftRange } from '../schema.js';

export async function listLanes(db: Executor, boardId: string): Promise<LaneRow[]> {
  return db.selectFrom('lanes').selectAll().where('board_id', '=', boardId).orderBy('position').execute();
}

/** Lanes with the number of their non-archived tasks, for board detail. */
export async function listLanesWithTaskCounts(
  db: Executor,
  boardId: string,
): Promise<Array<{ id: string; name: string; taskCount: number }>> {
  const rows = await db
    .selectFrom('lanes')
    .leftJoin('tasks', (join) => join.onRef('tasks.lane_id', '=', 'lanes.id').on('tasks.archived', '=', 0))
    .select(['lanes.id', 'lanes.name', 'lanes.position'])
    .select((eb) => eb.fn.count<number | string>('tasks.id').as('taskCount'))
    .where('lanes.board_id', '=', boardId)
    .groupBy(['lanes.id', 'lanes.name', 'lanes.position'])
    .orderBy('lanes.position')
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, taskCount: Number(r.taskCount) }));
}

const findLaneQuery = precompiled(2, (db, boardId: string, laneId: string) =>
  db.selectFrom('lanes').selectAll().where('id', '=', laneId).where('board_id', '=', boardId),
);

/** Runs on every task write (the lane must be one of the board's): compiled once. */
export async function findLane(db: Executor, boardId: string, laneId: string): Promise<LaneRow | undefined> {
  return (await findLaneQuery(db, boardId, laneId))[0];
}

export async function countLanes(db: Executor, boardId: string): Promise<number> {
  const row = await db
    .selectFrom('lanes')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('board_id', '=', boardId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertLane(db: Executor, row: LaneRow): Promise<void> {
  await db.insertInto('lanes').values(row).execute();
}

export async function updateLane(
  db: Executor,
  laneId: string,
  changes: Partial<Pick<LaneRow, 'name' | 'position' | 'updated_at'>>,
): Promise<void> {
  await db.updateTable('lanes').set(changes).where('id', '=', laneId).execute();
}

/** Shifts the positions of a board's lanes in [from, to] by delta. */
export async function shiftLanePositions(db: Executor, boardId: string, range: ShiftRange): Promise<void> {
  await db
    .updateTable('lanes')
    .set((eb) => ({ position: eb('position', '+', range.delta) }))
    .where('board_id', '=', boardId)
    .where('position', '>=', range.from)
    .where('position', '<=', range.to)
    .execute();
}

/** After removing the lane at `removed`, moves every later lane up one, so positions stay 0..n-1. */
export async function closeLanePositionGap(db: Executor, boardId: string, removed: number): Promise<void> {
  await db
    .updateTable('lanes')
    .set((eb) => ({ position: eb('position', '-', 1) }))
    .where('board_id', '=', boardId)
    .where('position', '>', removed)
    .execute();
}

export async function deleteLane(db: Executor, laneId: string): Promise<void> {
  await db.deleteFrom('lanes').where('id', '=', laneId).execute();
}
