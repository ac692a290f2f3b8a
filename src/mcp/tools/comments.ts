import { Type } from '@sinclair/typebox';
import { ReactionContentSchema } from '../../schemas/reactions.js';
import { CommentResult, ReactionResult } from '../outputs.js';
import { boardPath, resolveTask } from '../references.js';
import { BoardRef, CommentFields, IdempotencyKey, TaskRef } from '../schemas.js';
import { callApi, defineTool } from '../tool.js';

const COMMENTS = 'POST /api/ext/v1/boards/{boardId}/tasks/{taskId}/comments';

export const addComment = defineTool({
  name: 'add_comment',
  description: "Comment on a task (source `agent`; signed with authorName or the client's name).",
  readOnly: false,
  output: CommentResult,
  rest: [{ operation: COMMENTS, at: [], fixed: ['source'] }],
  input: Type.Object(
    {
      task: TaskRef,
      board: BoardRef,
      body: CommentFields.body,
      authorName: Type.Optional(CommentFields.authorName),
      idempotencyKey: IdempotencyKey,
    },
    { additionalProperties: false },
  ),
  async run(args, ctx) {
    const { board, task } = await resolveTask(ctx, args.task, args.board);
    const created = await callApi<{ data: { id: string; createdAt: string; authorName: string } }>(ctx, {
      method: 'POST',
      path: boardPath(board.id, 'tasks', task.id, 'comments'),
      body: { body: args.body, authorName: args.authorName ?? ctx.agentName, source: 'agent' },
      ...(args.idempotencyKey === undefined ? {} : { idempotencyKey: args.idempotencyKey }),
    });
    return {
      text: `Commented on ${task.shortId} as ${created.data.authorName} (${created.data.id}).`,
      structured: { comment: created.data, task: { id: task.id, shortId: task.shortId } },
    };
  },
});

export const react = defineTool({
  name: 'react',
  description: 'Add (or with remove=true take back) your reaction to a comment.',
  readOnly: false,
  output: ReactionResult,
  destructive: true,
  idempotent: true,
  input: Type.Object(
    {
      task: TaskRef,
      board: BoardRef,
      comment: Type.String({ minLength: 1, maxLength: 100, description: 'Comment id' }),
      content: ReactionContentSchema,
      remove: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: false },
  ),
  async run(args, ctx) {
    const { board, task } = await resolveTask(ctx, args.task, args.board);
    const path = boardPath(board.id, 'tasks', task.id, 'comments', args.comment, 'reactions', args.content);
    await callApi(ctx, { method: args.remove ? 'DELETE' : 'PUT', path });
    return {
      text: `${args.remove ? 'Removed' : 'Added'} ${args.content} on comment ${args.comment} of ${task.shortId}.`,
      structured: { comment: args.comment, content: args.content, reacted: !args.remove },
    };
  },
});
