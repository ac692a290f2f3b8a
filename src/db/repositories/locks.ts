import type { Tx } from '../../domain/transaction.js';

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
