import type { Static } from '@sinclair/typebox';
import { deleteComment, findComment, insertComment, listComments } from '../../db/repositories/comments.js';
import { lockTaskRow } from '../../db/repositories/task-locks.js';
import { taskExists } from '../../db/repositories/tasks.js';
import type { CommentRow, Executor } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';
import { isoNow } from '../../lib/time.js';
import type { CreateCommentBody } from '../../schemas/comments.js';
import { requireBoardPermission } from '../access.js';
import { type Actor, type AuthorSource, authorSource } from '../actor.js';
import { notFound } from '../errors.js';
import { mentionsIn } from '../mentions/mentions.js';
import { type ReactionCount, reactionCountsByComment, reactorOf } from '../reactions/reaction-service.js';
import type { ServiceDeps } from '../services.js';
import { LIMITS, requiredText } from '../text-rules.js';
import { inTransaction } from '../transaction.js';

export interface Comment {
  id: string;
  body: string;
  authorName: string;
  /** Who wrote it: `user` (web UI), `api` or `agent`. */
  authorSource: AuthorSource;
  /** The origin as stored; the same value as `authorSource`, named like the request field. */
  source: AuthorSource;
  createdAt: string;
  /** Counts per reaction content, in the fixed order, only contents with a count (`[]` when none). */
  reactions: ReactionCount[];
}

export type NewComment = Static<typeof CreateCommentBody>;

function toComment(row: CommentRow, reactions: ReactionCount[] = []): Comment {
  return {
    id: row.id,
    body: row.body,
    authorName: row.author_name,
    authorSource: row.author_source,
    source: row.author_source,
    createdAt: row.created_at,
    reactions,
  };
}

export class CommentService {
  constructor(private readonly deps: ServiceDeps) {}

  /** The task's thread, oldest first. */
  async listComments(actor: Actor, boardId: string, taskId: string): Promise<Comment[]> {
    requireBoardPermission(actor, boardId, 'read');
    const db = this.deps.database.kysely;
    await requireTask(db, boardId, taskId);
    const [rows, reactions] = await Promise.all([
      listComments(db, taskId),
      reactionCountsByComment(db, taskId, actor.kind === 'user' ? reactorOf(actor) : undefined),
    ]);
    return rows.map((row) => toComment(row, reactions.get(row.id)));
  }

  async createComment(actor: Actor, boardId: string, taskId: string, input: NewComment): Promise<Comment> {
    requireBoardPermission(actor, boardId, 'edit');
    const body = requiredText('body', input.body, LIMITS.commentBody);
    // A person in the web UI writes under their own name, whatever the request says.
    const authorName =
      actor.kind === 'user' ? actor.name : requiredText('authorName', input.authorName, LIMITS.authorName);
    const source = authorSource(actor, input.source);
    return inTransaction(this.deps.database, async (tx) => {
      // The lock keeps the task from being deleted before the comment is inserted.
      if (!(await lockTaskRow(tx, boardId, taskId))) throw notFound('Task');
      const row: CommentRow = {
        id: newId('cmt'),
        task_id: taskId,
        board_id: boardId,
        body,
        author_name: authorName,
        author_source: source,
        created_at: isoNow(this.deps.clock),
      };
      await insertComment(tx.db, row);
      const mentions = await mentionsIn(tx.db, body);
      await this.deps.activities.record(tx, actor, {
        type: 'comment.created',
        boardId,
        taskId,
        data: { task_id: taskId, comment_id: row.id, authorName, source, mentions },
      });
      return toComment(row);
    });
  }

  async deleteComment(actor: Actor, boardId: string, taskId: string, commentId: string): Promise<void> {
    requireBoardPermission(actor, boardId, 'edit');
    await inTransaction(this.deps.database, async (tx) => {
      await requireTask(tx.db, boardId, taskId);
      if (!(await findComment(tx.db, taskId, commentId))) throw notFound('Comment');
      await deleteComment(tx.db, commentId);
      await this.deps.activities.record(tx, actor, {
        type: 'comment.deleted',
        boardId,
        taskId,
        data: { task_id: taskId, comment_id: commentId },
      });
    });
  }
}

async function requireTask(db: Executor, boardId: string, taskId: string): Promise<void> {
  if (!(await taskExists(db, boardId, taskId))) throw notFound('Task');
}
