import { deleteComment, findComment, insertComment, listComments } from '../../db/repositories/comments.js';
import { lockTaskRow, taskExists } from '../../db/repositories/tasks.js';
import type { CommentRow, Executor } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';
import { isoNow } from '../../lib/time.js';
import { requireBoardPermission } from '../access.js';
import { type Actor, type AuthorSource, authorSource } from '../actor.js';
import { notFound } from '../errors.js';
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
}

export interface NewComment {
  body: string;
  authorName: string;
  source?: 'api' | 'agent';
}

function toComment(row: CommentRow): Comment {
  return {
    id: row.id,
    body: row.body,
    authorName: row.author_name,
    authorSource: row.author_source,
    source: row.author_source,
    createdAt: row.created_at,
  };
}

export class CommentService {
  constructor(private readonly deps: ServiceDeps) {}

  /** The task's thread, oldest first. */
  async listComments(actor: Actor, boardId: string, taskId: string): Promise<Comment[]> {
    requireBoardPermission(actor, boardId, 'read');
    const db = this.deps.database.kysely;
    await requireTask(db, boardId, taskId);
    return (await listComments(db, taskId)).map(toComment);
  }

  async createComment(actor: Actor, boardId: string, taskId: string, input: NewComment): Promise<Comment> {
    requireBoardPermission(actor, boardId, 'edit');
    const body = requiredText('body', input.body, LIMITS.commentBody);
    const authorName = requiredText('authorName', input.authorName, LIMITS.authorName);
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
      await this.deps.events.record(tx, actor, {
        type: 'comment.created',
        boardId,
        data: { task_id: taskId, comment_id: row.id, authorName, source },
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
      await this.deps.events.record(tx, actor, {
        type: 'comment.deleted',
        boardId,
        data: { task_id: taskId, comment_id: commentId },
      });
    });
  }
}

async function requireTask(db: Executor, boardId: string, taskId: string): Promise<void> {
  if (!(await taskExists(db, boardId, taskId))) throw notFound('Task');
}
