import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { CommentService } from '../../domain/comments/comment-service.js';
import { actorOf } from '../plugins/authentication.js';
import { AUTH_ERRORS, Data, Id, NoContent, Timestamp } from '../schemas/common.js';

const AuthorSource = Type.Union([Type.Literal('user'), Type.Literal('api'), Type.Literal('agent')]);

const Comment = Type.Object({
  id: Type.String(),
  body: Type.String(),
  authorName: Type.String(),
  authorSource: Type.Union(AuthorSource.anyOf, {
    description: '`user` (written in the web UI), `api` or `agent`.',
  }),
  source: Type.Union(AuthorSource.anyOf, { description: 'The same value as `authorSource`.' }),
  createdAt: Timestamp,
});

const TaskParams = Type.Object({ boardId: Id('Board id'), taskId: Id('Task id') });
const CommentParams = Type.Object({
  boardId: Id('Board id'),
  taskId: Id('Task id'),
  commentId: Id('Comment id'),
});

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
        summary: "The task's comment thread, oldest first",
        params: TaskParams,
        response: { 200: Data(Type.Array(Comment)), ...AUTH_ERRORS },
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
        summary: 'Add a comment',
        params: TaskParams,
        body: Type.Object(
          {
            body: Type.String(),
            authorName: Type.String(),
            source: Type.Optional(
              Type.Union([Type.Literal('api'), Type.Literal('agent')], {
                description: 'Defaults to `api`; agents send `agent`.',
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: { 201: Data(Comment), ...AUTH_ERRORS },
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
        summary: 'Delete a comment',
        params: CommentParams,
        response: { 204: NoContent, ...AUTH_ERRORS },
      },
    },
    async (request, reply) => {
      const { boardId, taskId, commentId } = request.params;
      await comments.deleteComment(actorOf(request), boardId, taskId, commentId);
      return reply.status(204).send(null);
    },
  );
};
