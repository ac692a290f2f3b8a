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
