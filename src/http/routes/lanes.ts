import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { LaneService } from '../../domain/lanes/lane-service.js';
import { BoardParams, Data, NoContent } from '../../schemas/common.js';
import { READ_ERRORS, WRITE_ERRORS } from '../../schemas/errors.js';
import { CreateLaneBody, Lane, LaneParams, UpdateLaneBody } from '../../schemas/lanes.js';
import { actorOf } from '../plugins/authentication.js';

export const laneRoutes: FastifyPluginAsyncTypebox<{ lanes: LaneService }> = async (app, { lanes }) => {
  const tags = ['Lanes'];

  app.get(
    '/boards/:boardId/lanes',
    {
      schema: {
        tags,
        operationId: 'listLanes',
        summary: 'List lanes',
        description: "The board's lanes by `position` (0..n-1). Needs `read`.",
        params: BoardParams,
        response: { 200: Data(Type.Array(Lane)), ...READ_ERRORS },
      },
    },
    async (request) => ({ data: await lanes.listLanes(actorOf(request), request.params.boardId) }),
  );

  app.post(
    '/boards/:boardId/lanes',
    {
      schema: {
        tags,
        operationId: 'createLane',
        summary: 'Create a lane',
        description: 'Appends a lane at the end of the board. Needs `edit`. Fires `lane.created`.',
        params: BoardParams,
        body: CreateLaneBody,
        response: { 201: Data(Lane), ...WRITE_ERRORS },
      },
    },
    async (request, reply) => {
      const lane = await lanes.createLane(actorOf(request), request.params.boardId, request.body);
      return reply.status(201).send({ data: lane });
    },
  );

  app.patch(
    '/boards/:boardId/lanes/:laneId',
    {
      schema: {
        tags,
        operationId: 'updateLane',
        summary: 'Update a lane',
        description:
          'Renames the lane and/or moves it to `position` (a value past the end means last); the other lanes shift to keep positions 0..n-1. Needs `edit`. Fires `lane.updated` when something changed.',
        params: LaneParams,
        body: UpdateLaneBody,
        response: { 200: Data(Lane), ...WRITE_ERRORS },
      },
    },
    async (request) => {
      const { boardId, laneId } = request.params;
      return { data: await lanes.updateLane(actorOf(request), boardId, laneId, request.body) };
    },
  );

  app.delete(
    '/boards/:boardId/lanes/:laneId',
    {
      schema: {
        tags,
        operationId: 'deleteLane',
        summary: 'Delete a lane',
        description:
          'Deletes the lane and its tasks and closes the gap in lane positions. Needs `edit`. Fires `lane.deleted`.',
        params: LaneParams,
        response: { 204: NoContent, ...WRITE_ERRORS },
      },
    },
    async (request, reply) => {
      await lanes.deleteLane(actorOf(request), request.params.boardId, request.params.laneId);
      return reply.status(204).send(null);
    },
  );
};
