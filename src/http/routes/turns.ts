import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { TurnService } from '../../domain/turns/turn-service.js';
import { TaskParams } from '../../schemas/common.js';
import { READ_ERRORS, WRITE_ERRORS } from '../../schemas/errors.js';
import {
  RecordTurnsBody,
  RecordTurnsResponse,
  TurnListQuery,
  TurnPage,
  WatermarkResponse,
} from '../../schemas/turns.js';
import { actorOf } from '../plugins/authentication.js';

const MiB = 1024 * 1024;

export const turnRoutes: FastifyPluginAsyncTypebox<{ turns: TurnService }> = async (app, { turns }) => {
  const tags = ['Turns'];

  app.post(
    '/boards/:boardId/tasks/:taskId/turns',
    {
      // A batch of up to 100 turns of up to 1 MiB each needs more than the usual 1 MiB.
      bodyLimit: 10 * MiB,
      schema: {
        tags,
        operationId: 'recordTurns',
        summary: 'Record captured turns',
        description:
          "Stores 1..100 turns of an agent's conversation. A turn whose (source, sourceId) is already stored, or repeated in the batch, is ignored and not counted in `inserted`. The body may be up to 10 MiB. Needs `edit`. Turns fire no events.",
        params: TaskParams,
        body: RecordTurnsBody,
        response: {
          201: RecordTurnsResponse,
          ...WRITE_ERRORS,
        },
      },
    },
    async (request, reply) => {
      const { boardId, taskId } = request.params;
      const result = await turns.recordTurns(actorOf(request), boardId, taskId, request.body.turns);
      return reply.status(201).send({ data: { inserted: result.inserted }, watermarks: result.watermarks });
    },
  );

  app.get(
    '/boards/:boardId/tasks/:taskId/turns',
    {
      schema: {
        tags,
        operationId: 'listTurns',
        summary: 'List turns',
        description:
          'Turns ordered by `capturedAt`, then id, a page at a time: pass the returned `cursor` back with the same filters for the next page. `watermarks` always cover every source of the task. Needs `read`.',
        params: TaskParams,
        querystring: TurnListQuery,
        response: {
          200: TurnPage,
          ...READ_ERRORS,
        },
      },
    },
    async (request) => {
      const { boardId, taskId } = request.params;
      const page = await turns.listTurns(actorOf(request), boardId, taskId, request.query);
      return { data: page.turns, watermarks: page.watermarks, cursor: page.cursor };
    },
  );

  app.get(
    '/boards/:boardId/tasks/:taskId/turns/watermark',
    {
      schema: {
        tags,
        operationId: 'getTurnWatermarks',
        summary: 'Get turn watermarks',
        description:
          'For each source, the last captured turn (greatest `capturedAt`, then `sourceId`), so a capturing agent knows where to resume. Needs `read`.',
        params: TaskParams,
        response: { 200: WatermarkResponse, ...READ_ERRORS },
      },
    },
    async (request) => {
      const { boardId, taskId } = request.params;
      return { watermarks: await turns.getWatermarks(actorOf(request), boardId, taskId) };
    },
  );
};
