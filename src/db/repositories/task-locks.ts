import { precompiled } from '../precompiled.js';
import type { Tx } from '../transaction.js';

/*
 * The row locks task writes take, in the one order every writer follows (the board's key, then lanes in
 * id order, then task rows; see domain/tasks/task-locking.ts), so task and lane operations never
 * deadlock. SQLite has one writer and takes none of them; the same reads still say whether the rows
 * exist.
 */

/**
 * Holds the board against structural changes (lane reorder or delete, board delete take its row FOR
 * UPDATE) without serialising task operations among themselves: KEY SHARE locks do not conflict with
 * each other. Taking it before any lane lock gives every writer the same order board → lanes, which is
 * what keeps task operations and lane operations from deadlocking. Returns whether the board exists.
 */
export async function shareBoardKey(tx: Tx, boardId: string): Promise<boolean> {
  const query = tx.dialect === 'postgres' ? boardKeySharedPostgres : boardKeySharedSqlite;
  return (await query(tx.db, boardId)).length > 0;
}

// Every task write runs it first: built and compiled once.
const boardKeySharedPostgres = precompiled(1, (db, boardId: string) =>
  db.selectFrom('boards').select('id').where('id', '=', boardId).forKeyShare(),
);
const boardKeySharedSqlite = precompiled(1, (db, boardId: string) =>
  db.selectFrom('boards').select('id').where('id', '=', boardId),
);

/**
 * Serialises changes to one task's children (todo order) and keeps the task from being deleted until the
 * transaction ends. NO KEY UPDATE still lets other transactions insert rows that reference the task.
 * Returns whether the task is on the board.
 */
export async function lockTaskRow(tx: Tx, boardId: string, taskId: string): Promise<boolean> {
  const query = tx.db
    .selectFrom('tasks')
    .select('id')
    .where('id', '=', taskId)
    .where('board_id', '=', boardId);
  const row = await (tx.dialect === 'postgres' ? query.forNoKeyUpdate() : query).executeTakeFirst();
  return row !== undefined;
}

/**
 * Serialises changes to a lane's order (moves, unarchive, the renumbering) until the transaction ends.
 * NO KEY UPDATE: appends, whose foreign-key check takes KEY SHARE on the lane, do not wait for it; a
 * lane delete (FOR UPDATE) does. SQLite needs no lock (one writer). Returns whether the lane exists.
 */
export async function lockLaneOrder(tx: Tx, laneId: string): Promise<boolean> {
  const query = tx.db.selectFrom('lanes').select('id').where('id', '=', laneId);
  const row = await (tx.dialect === 'postgres' ? query.forNoKeyUpdate() : query).executeTakeFirst();
  return row !== undefined;
}

/** lockLaneOrder for every lane of the board, in id order; returns their ids. */
export async function lockBoardLaneOrders(tx: Tx, boardId: string): Promise<Set<string>> {
  const query = tx.db.selectFrom('lanes').select('id').where('board_id', '=', boardId).orderBy('id');
  const rows = await (tx.dialect === 'postgres' ? query.forNoKeyUpdate() : query).execute();
  return new Set(rows.map((r) => r.id));
}
