import {
  countReactions,
  countTaskReactions,
  deleteReaction,
  findReaction,
  insertReaction,
  listReactorTaskReactions,
  lockCommentOfTask,
  type ReactorKey,
} from '../../db/repositories/reactions.js';
import { lockTaskRow } from '../../db/repositories/task-locks.js';
import type { Executor } from '../../db/schema.js';
import { isoNow } from '../../lib/time.js';
import { requireBoardPermission } from '../access.js';
import type { Actor } from '../actor.js';
import { notFound } from '../errors.js';
import type { ServiceDeps } from '../services.js';
import { inTransaction, type Tx } from '../transaction.js';
import {
  checkReactionContent,
  orderedCounts,
  type ReactionContent,
  type ReactionCount,
  reactorOf,
} from './reaction-rules.js';

export { REACTION_CONTENTS, type ReactionContent, type ReactionCount, reactorOf } from './reaction-rules.js';

/** The caller's reaction, with how many reactions of that content the comment now has. */
export interface Reaction {
  commentId: string;
  content: ReactionContent;
  count: number;
  /** When the caller reacted. */
  createdAt: string;
}

export class ReactionService {
  constructor(private readonly deps: ServiceDeps) {}

  /** Adds the caller's reaction; `created` is false (and nothing is recorded) when it already existed. */
  async addReaction(
    actor: Actor,
    boardId: string,
    taskId: string,
    commentId: string,
    content: string,
  ): Promise<{ created: boolean; reaction: Reaction }> {
    requireBoardPermission(actor, boardId, 'edit');
    const checked = checkReactionContent(content);
    const reactor = reactorOf(actor);
    return inTransaction(this.deps.database, async (tx) => {
      await lockTaskWithComment(tx, boardId, taskId, commentId);
      const created = await insertReaction(tx.db, {
        comment_id: commentId,
        task_id: taskId,
        board_id: boardId,
        content: checked,
        ...reactor,
        created_at: isoNow(this.deps.clock),
      });
      if (created) {
        await this.deps.activities.record(tx, actor, {
          type: 'reaction.created',
          boardId,
          taskId,
          data: { task_id: taskId, comment_id: commentId, content: checked },
        });
      }
      const row = await findReaction(tx.db, commentId, checked, reactor);
      const count = await countReactions(tx.db, commentId, checked);
      return {
        created,
        reaction: {
          commentId,
          content: checked,
          count,
          createdAt: row?.created_at ?? isoNow(this.deps.clock),
        },
      };
    });
  }

  /** Removes the caller's reaction; 404 when the caller has none of that content on the comment. */
  async removeReaction(
    actor: Actor,
    boardId: string,
    taskId: string,
    commentId: string,
    content: string,
  ): Promise<void> {
    requireBoardPermission(actor, boardId, 'edit');
    const checked = checkReactionContent(content);
    await inTransaction(this.deps.database, async (tx) => {
      await lockTaskWithComment(tx, boardId, taskId, commentId);
      if (!(await deleteReaction(tx.db, commentId, checked, reactorOf(actor)))) throw notFound('Reaction');
      await this.deps.activities.record(tx, actor, {
        type: 'reaction.deleted',
        boardId,
        taskId,
        data: { task_id: taskId, comment_id: commentId, content: checked },
      });
    });
  }
}

/**
 * The comment's task is locked (PostgreSQL) so that neither it nor the comment is deleted before the
 * reaction row is written; a comment of another task is not found.
 */
async function lockTaskWithComment(
  tx: Tx,
  boardId: string,
  taskId: string,
  commentId: string,
): Promise<void> {
  if (!(await lockTaskRow(tx, boardId, taskId))) throw notFound('Task');
  if (!(await lockCommentOfTask(tx, taskId, commentId))) throw notFound('Comment');
}

/** Each comment's reaction counts for a whole task thread, in one query. */
export async function reactionCountsByComment(
  db: Executor,
  taskId: string,
  viewer?: ReactorKey,
): Promise<Map<string, ReactionCount[]>> {
  const perComment = new Map<string, Map<string, number>>();
  for (const row of await countTaskReactions(db, taskId)) {
    const counts = perComment.get(row.comment_id) ?? new Map<string, number>();
    counts.set(row.content, row.count);
    perComment.set(row.comment_id, counts);
  }
  const result = new Map([...perComment].map(([commentId, counts]) => [commentId, orderedCounts(counts)]));
  if (!viewer) return result;
  // The web UI highlights the person's own reactions; the external API keeps the plain counts.
  const own = new Set(
    (await listReactorTaskReactions(db, taskId, viewer)).map((r) => `${r.comment_id} ${r.content}`),
  );
  for (const [commentId, counts] of result) {
    for (const count of counts) count.mine = own.has(`${commentId} ${count.content}`);
  }
  return result;
}
