import type { ActivityRow, Executor, LaneRow } from '../schema.js';

/** One activity of the board by id, if it is (still) stored. */
export async function findBoardActivity(
  db: Executor,
  boardId: string,
  id: number,
): Promise<Pick<ActivityRow, 'id' | 'type' | 'created_at'> | undefined> {
  return db
    .selectFrom('all_activities')
    .select(['id', 'type', 'created_at'])
    .where('board_id', '=', boardId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The board's oldest stored activity (its `board.created` until retention removes that). */
export async function oldestBoardActivity(
  db: Executor,
  boardId: string,
): Promise<Pick<ActivityRow, 'id' | 'type'> | undefined> {
  return db
    .selectFrom('all_activities')
    .select(['id', 'type'])
    .where('board_id', '=', boardId)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

/** The board's newest activity id, 0 when it has none. */
export async function latestBoardActivityId(db: Executor, boardId: string): Promise<number> {
  // Not max(id): over the view, SQLite would read every activity of the board to find it.
  const row = await db
    .selectFrom('all_activities')
    .select('id')
    .where('board_id', '=', boardId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

/**
 * The smallest id among activities created at or after `since` (of any board), or null when there is
 * none. Ids follow time, so it is the first id after the newest activity created before `since`: found
 * by reading back from the newest id through the window, where min(id) over created_at would read the
 * whole history (no index on created_at; retention deletes by id).
 */
export async function firstActivityIdSince(db: Executor, since: string): Promise<number | null> {
  const before = await db
    .selectFrom('all_activities')
    .select('id')
    .where('created_at', '<', since)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const row = await db
    .selectFrom('all_activities')
    .select('id')
    .where('id', '>', before?.id ?? 0)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row === undefined ? null : Number(row.id);
}

/** The board's activities with id >= `fromId`, oldest first. */
export async function boardActivitiesFrom(
  db: Executor,
  boardId: string,
  fromId: number,
  limit: number,
): Promise<ActivityRow[]> {
  return db
    .selectFrom('all_activities')
    .selectAll()
    .where('board_id', '=', boardId)
    .where('id', '>=', fromId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function boardLanes(db: Executor, boardId: string): Promise<LaneRow[]> {
  return db.selectFrom('lanes').selectAll().where('board_id', '=', boardId).orderBy('position').execute();
}
