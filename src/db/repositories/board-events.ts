import type { ActivityRow, Executor, LaneRow } from '../schema.js';

/** One activity of the board by id, if it is (still) stored. */
export async function findBoardActivity(
  db: Executor,
  boardId: string,
  id: number,
): Promise<Pick<ActivityRow, 'id' | 'type' | 'created_at'> | undefined> {
  return db
    .selectFrom('activities')
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
    .selectFrom('activities')
    .select(['id', 'type'])
    .where('board_id', '=', boardId)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

/** The board's newest activity id, 0 when it has none. */
export async function latestBoardActivityId(db: Executor, boardId: string): Promise<number> {
  const row = await db
    .selectFrom('activities')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('board_id', '=', boardId)
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

/**
 * The smallest id among activities created at or after `since` (of any board: ids follow time, so the
 * created_at index finds the start of a time window), or null when there is none.
 */
export async function firstActivityIdSince(db: Executor, since: string): Promise<number | null> {
  const row = await db
    .selectFrom('activities')
    .select((eb) => eb.fn.min('id').as('id'))
    .where('created_at', '>=', since)
    .executeTakeFirst();
  return row?.id == null ? null : Number(row.id);
}

/** The board's activities with id >= `fromId`, oldest first. */
export async function boardActivitiesFrom(
  db: Executor,
  boardId: string,
  fromId: number,
  limit: number,
): Promise<ActivityRow[]> {
  return db
    .selectFrom('activities')
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
