import type { Executor } from '../schema.js';

/** The board's chosen tag colours, by tag. */
export async function listTagColors(
  db: Executor,
  boardId: string,
): Promise<Array<{ tag: string; color: string }>> {
  return db
    .selectFrom('board_tag_colors')
    .select(['tag', 'color'])
    .where('board_id', '=', boardId)
    .orderBy('tag')
    .execute();
}

export async function findTagColor(db: Executor, boardId: string, tag: string): Promise<string | null> {
  const row = await db
    .selectFrom('board_tag_colors')
    .select('color')
    .where('board_id', '=', boardId)
    .where('tag', '=', tag)
    .executeTakeFirst();
  return row?.color ?? null;
}

export async function upsertTagColor(
  db: Executor,
  row: { board_id: string; tag: string; color: string; updated_at: string },
): Promise<void> {
  await db
    .insertInto('board_tag_colors')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['board_id', 'tag']).doUpdateSet({ color: row.color, updated_at: row.updated_at }),
    )
    .execute();
}

export async function deleteTagColor(db: Executor, boardId: string, tag: string): Promise<void> {
  await db.deleteFrom('board_tag_colors').where('board_id', '=', boardId).where('tag', '=', tag).execute();
}
