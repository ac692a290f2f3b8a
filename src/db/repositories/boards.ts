import type { BoardRow, Executor, Permission } from '../schema.js';

export async function insertBoard(db: Executor, row: BoardRow): Promise<void> {
  await db.insertInto('boards').values(row).execute();
}

export async function findBoard(db: Executor, id: string): Promise<BoardRow | undefined> {
  return db.selectFrom('boards').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function boardExists(db: Executor, id: string): Promise<boolean> {
  return (await db.selectFrom('boards').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

export async function listAllBoards(db: Executor): Promise<BoardRow[]> {
  return db.selectFrom('boards').selectAll().orderBy('created_at').orderBy('id').execute();
}

export async function listBoardsGrantedTo(
  db: Executor,
  keyId: string,
): Promise<Array<BoardRow & { permission: Permission }>> {
  return db
    .selectFrom('boards')
    .innerJoin('api_key_grants as g', 'g.board_id', 'boards.id')
    .selectAll('boards')
    .select('g.permission')
    .where('g.api_key_id', '=', keyId)
    .orderBy('boards.created_at')
    .orderBy('boards.id')
    .execute();
}

export async function deleteBoard(db: Executor, id: string): Promise<boolean> {
  const result = await db.deleteFrom('boards').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Renames a board; returns false when it does not exist. */
export async function renameBoard(
  db: Executor,
  id: string,
  name: string,
  updatedAt: string,
): Promise<boolean> {
  const result = await db
    .updateTable('boards')
    .set({ name, updated_at: updatedAt })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
