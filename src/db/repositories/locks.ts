import { precompiled } from '../precompiled.js';
import type { Tx } from '../transaction.js';

/**
 * Serialises position changes per board or lane. PostgreSQL takes a row lock held to the end of the
 * transaction; SQLite needs none because the process's one connection runs transactions one at a time.
 * Returns whether the row exists.
 */
export async function lockRow(tx: Tx, table: 'boards' | 'lanes', id: string): Promise<boolean> {
  const query = tx.db.selectFrom(table).select('id').where('id', '=', id);
  const row = await (tx.dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
  return row !== undefined;
}

/** Locks every lane of the board in id order (the same order lockRow callers use); returns their ids. */
export async function lockBoardLanes(tx: Tx, boardId: string): Promise<Set<string>> {
  const query = tx.db.selectFrom('lanes').select('id').where('board_id', '=', boardId).orderBy('id');
  const rows = await (tx.dialect === 'postgres' ? query.forUpdate() : query).execute();
  return new Set(rows.map((r) => r.id));
}

const laneOfBoard = precompiled(2, (db, boardId: string, laneId: string) =>
  db.selectFrom('lanes').select('id').where('id', '=', laneId).where('board_id', '=', boardId),
);
const laneOfBoardForUpdate = precompiled(2, (db, boardId: string, laneId: string) =>
  db.selectFrom('lanes').select('id').where('id', '=', laneId).where('board_id', '=', boardId).forUpdate(),
);

/**
 * Locks one lane, checking in the same query that it belongs to the board (every task create runs it).
 * Returns whether it does.
 */
export async function lockLaneOfBoard(tx: Tx, boardId: string, laneId: string): Promise<boolean> {
  const query = tx.dialect === 'postgres' ? laneOfBoardForUpdate : laneOfBoard;
  return (await query(tx.db, boardId, laneId)).length > 0;
}
