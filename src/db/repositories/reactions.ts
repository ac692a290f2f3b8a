import type { Executor, ReactionRow } from '../schema.js';
import type { Tx } from '../transaction.js';

export type ReactorKey = Pick<ReactionRow, 'actor_kind' | 'actor_id'>;

/** Adds the reaction unless the actor already has it; returns whether a row was inserted. */
export async function insertReaction(db: Executor, row: ReactionRow): Promise<boolean> {
  const result = await db
    .insertInto('reactions')
    .values(row)
    .onConflict((oc) => oc.columns(['comment_id', 'content', 'actor_kind', 'actor_id']).doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

export async function findReaction(
  db: Executor,
  commentId: string,
  content: string,
  reactor: ReactorKey,
): Promise<ReactionRow | undefined> {
  return db
    .selectFrom('reactions')
    .selectAll()
    .where('comment_id', '=', commentId)
    .where('content', '=', content)
    .where('actor_kind', '=', reactor.actor_kind)
    .where('actor_id', '=', reactor.actor_id)
    .executeTakeFirst();
}

/** Removes the actor's reaction; returns whether there was one. */
export async function deleteReaction(
  db: Executor,
  commentId: string,
  content: string,
  reactor: ReactorKey,
): Promise<boolean> {
  const result = await db
    .deleteFrom('reactions')
    .where('comment_id', '=', commentId)
    .where('content', '=', content)
    .where('actor_kind', '=', reactor.actor_kind)
    .where('actor_id', '=', reactor.actor_id)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function countReactions(db: Executor, commentId: string, content: string): Promise<number> {
  const row = await db
    .selectFrom('reactions')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('comment_id', '=', commentId)
    .where('content', '=', content)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Counts per comment and content for every comment of the task (one query for a whole thread). */
export async function countTaskReactions(
  db: Executor,
  taskId: string,
): Promise<Array<{ comment_id: string; content: string; count: number }>> {
  const rows = await db
    .selectFrom('reactions')
    .select(['comment_id', 'content', (eb) => eb.fn.countAll<number>().as('count')])
    .where('task_id', '=', taskId)
    .groupBy(['comment_id', 'content'])
    .execute();
  return rows.map((r) => ({ comment_id: r.comment_id, content: r.content, count: Number(r.count) }));
}

/** The contents the reactor chose on each comment of the task (a person's own, highlighted in the UI). */
export async function listReactorTaskReactions(
  db: Executor,
  taskId: string,
  reactor: ReactorKey,
): Promise<Array<{ comment_id: string; content: string }>> {
  return db
    .selectFrom('reactions')
    .select(['comment_id', 'content'])
    .where('task_id', '=', taskId)
    .where('actor_kind', '=', reactor.actor_kind)
    .where('actor_id', '=', reactor.actor_id)
    .execute();
}

/**
 * Whether the comment belongs to the task; on PostgreSQL the row is share-locked to the end of the
 * transaction, so a concurrent delete waits instead of breaking the reaction's foreign key.
 */
export async function lockCommentOfTask(tx: Tx, taskId: string, commentId: string): Promise<boolean> {
  const query = tx.db
    .selectFrom('comments')
    .select('id')
    .where('id', '=', commentId)
    .where('task_id', '=', taskId);
  const row = await (tx.dialect === 'postgres' ? query.forShare() : query).executeTakeFirst();
  return row !== undefined;
}
