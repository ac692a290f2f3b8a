import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { CommentService } from '../../domain/comments/comment-service.js';
import { Comment, CommentParams, CreateCommentBody } from '../../schemas/comments.js';
import { Data, NoContent, TaskParams } from '../../schemas/common.js';
import { READ_ERRORS, WRITE_ERRORS } from '../../schemas/errors.js';
import { actorOf } from '../plugins/authentication.js';

export const commentRoutes: FastifyPluginAsyncTypebox<{ comments: CommentService }> = async (
  app,
  { comments },
) => {
  const tags = ['Comments'];

  app.get(
    '/boards/:boardId/tasks/:taskId/comments',
    {
      schema: {
        tags,
        operationId: 'listComments',
        summary: 'List comments',
        description: "The task's comment thread, oldest first. Needs `read`.",
        params: TaskParams,
        response: { 200: Data(Type.Array(Comment)), ...READ_ERRORS },
      },
    },
    async (request) => {
      const { boardId, taskId } = request.params;
      return { data: await comments.listComments(actorOf(request), boardId, taskId) };
    },
  );

  app.post(
    '/boards/:boardId/tasks/:taskId/comments',
    {
      schema: {
        tags,
        operationId: 'createComment',
        summary: 'Add a comment',
        description:
          'Adds a comment to the task. `source` defaults to `api`; agents send `agent`. Needs `edit`. Fires `comment.created`.',
        params: TaskParams,
        body: CreateCommentBody,
        response: { 201: Data(Comment), ...WRITE_ERRORS },
      },
    },
    async (request, reply) => {
      const { boardId, taskId } = request.params;
      const comment = await comments.createComment(actorOf(request), boardId, taskId, request.body);
      return reply.status(201).send({ data: comment });
    },
  );

  app.delete(
    '/boards/:boardId/tasks/:taskId/comments/:commentId',
    {
      schema: {
        tags,
        operationId: 'deleteComment',
        summary: 'Delete a comment',
        description: 'Needs `edit`. Fires `comment.deleted`.',
        params: CommentParams,
        response: { 204: NoContent, ...WRITE_ERRORS },
      },
    },
    async (request, reply) => {
      const { boardId, taskId, commentId } = request.params;
      await comments.deleteComment(actorOf(request), boardId, taskId, commentId);
      return reply.status(204).send(null);
    },
  );
};
