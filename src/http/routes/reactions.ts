import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ReactionService } from '../../domain/reactions/reaction-service.js';
import { Data, NoContent } from '../../schemas/common.js';
import { WRITE_ERRORS } from '../../schemas/errors.js';
import { Reaction, ReactionParams } from '../../schemas/reactions.js';
import { actorOf } from '../plugins/authentication.js';

export const reactionRoutes: FastifyPluginAsyncTypebox<{ reactions: ReactionService }> = async (
  app,
  { reactions },
) => {
  const tags = ['Reactions'];
  const path = '/boards/:boardId/tasks/:taskId/comments/:commentId/reactions/:content';

  app.put(
    path,
    {
      schema: {
        tags,
        operationId: 'addReaction',
        summary: 'Add a reaction',
        description:
          'Idempotent: 201 when added, 200 when the caller already had this reaction (and no second event). Needs `edit`.',
        params: ReactionParams,
        response: { 200: Data(Reaction), 201: Data(Reaction), ...WRITE_ERRORS },
      },
    },
    async (request, reply) => {
      const { boardId, taskId, commentId, content } = request.params;
      const result = await reactions.addReaction(actorOf(request), boardId, taskId, commentId, content);
      return reply.status(result.created ? 201 : 200).send({ data: result.reaction });
    },
  );

  app.delete(
    path,
    {
      schema: {
        tags,
        operationId: 'removeReaction',
        summary: 'Remove a reaction',
        description: '404 when the caller has no such reaction on the comment. Needs `edit`.',
        params: ReactionParams,
        response: { 204: NoContent, ...WRITE_ERRORS },
      },
    },
    async (request, reply) => {
      const { boardId, taskId, commentId, content } = request.params;
      await reactions.removeReaction(actorOf(request), boardId, taskId, commentId, content);
      return reply.status(204).send(null);
    },
  );
};
