import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Comment, CommentParams } from '../../schemas/comments.js';
import { Data, NoContent, TaskParams } from '../../schemas/common.js';
import { assetRoutes } from '../routes/assets.js';
import { boardRoutes } from '../routes/boards.js';
import { laneRoutes } from '../routes/lanes.js';
import { reactionRoutes } from '../routes/reactions.js';
import { taskRoutes } from '../routes/tasks.js';
import { todoRoutes } from '../routes/todos.js';
import { turnRoutes } from '../routes/turns.js';
import { actorOfUi } from './account-routes.js';
import type { UiServices } from './ui-services.js';
import { personOf } from './ui-session.js';

/**
 * The board resources for the board UI: the external API's own routes, so paths, bodies and answers
 * are the same, but with the signed-in person as actor (activities recorded, no webhooks fired).
 * Comments differ: the author is the person, so the body carries only the text.
 */
export const uiBoardRoutes: FastifyPluginAsyncTypebox<{ services: UiServices }> = async (
  app,
  { services },
) => {
  await app.register(boardRoutes, { boards: services.boards });
  await app.register(laneRoutes, { lanes: services.lanes });
  await app.register(taskRoutes, { tasks: services.tasks });
  await app.register(todoRoutes, { todos: services.todos });
  await app.register(turnRoutes, { turns: services.turns });
  await app.register(assetRoutes, { assets: services.assets });
  await app.register(reactionRoutes, { reactions: services.reactions });

  app.get(
    '/boards/:boardId/tasks/:taskId/comments',
    { schema: { params: TaskParams, response: { 200: Data(Type.Array(Comment)) } } },
    async (request) => {
      const { boardId, taskId } = request.params;
      return { data: await services.comments.listComments(actorOfUi(request), boardId, taskId) };
    },
  );

  app.post(
    '/boards/:boardId/tasks/:taskId/comments',
    {
      schema: {
        params: TaskParams,
        body: Type.Object({ body: Type.String() }, { additionalProperties: false }),
        response: { 201: Data(Comment) },
      },
    },
    async (request, reply) => {
      const { boardId, taskId } = request.params;
      const comment = await services.comments.createComment(actorOfUi(request), boardId, taskId, {
        body: request.body.body,
        authorName: personOf(request).name,
      });
      return reply.status(201).send({ data: comment });
    },
  );

  app.delete(
    '/boards/:boardId/tasks/:taskId/comments/:commentId',
    { schema: { params: CommentParams, response: { 204: NoContent } } },
    async (request, reply) => {
      const { boardId, taskId, commentId } = request.params;
      await services.comments.deleteComment(actorOfUi(request), boardId, taskId, commentId);
      return reply.status(204).send(null);
    },
  );
};
