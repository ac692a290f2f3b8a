import type { CommentRow, Executor } from '../schema.js';

/** A task's thread, oldest first; ids sort in creation order, so they break same-millisecond ties. */
export async function listComments(db: Executor, taskId: string): Promise<CommentRow[]> {
  return db
    .selectFrom('comments')
    .selectAll()
    .where('task_id', '=', taskId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function findComment(
  db: Executor,
  taskId: string,
  commentId: string,
): Promise<CommentRow | undefined> {
  return db
    .selectFrom('comments')
    .selectAll()
    .where('id', '=', commentId)
    .where('task_id', '=', taskId)
    .executeTakeFirst();
}

export async function insertComment(db: Executor, row: CommentRow): Promise<void> {
  await db.insertInto('comments').values(row).execute();
}

export async function deleteComment(db: Executor, commentId: string): Promise<void> {
  await db.deleteFrom('comments').where('id', '=', commentId).execute();
}
