import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { LaneService } from '../../domain/lanes/lane-service.js';
import { actorOf } from '../plugins/authentication.js';
import { AUTH_ERRORS, BoardParams, Data, Id, NoContent, Timestamp } from '../schemas/common.js';

const Lane = Type.Object({
  id: Type.String(),
  name: Type.String(),
  position: Type.Integer({ description: 'Runs 0..n-1 in board order.' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
const LaneParams = Type.Object({ boardId: Id('Board id'), laneId: Id('Lane id') });

export const laneRoutes: FastifyPluginAsyncTypebox<{ lanes: LaneService }> = async (app, { lanes }) => {
  const tags = ['Lanes'];

  app.get(
    '/boards/:boardId/lanes',
    {
      schema: {
        tags,
        summary: 'List lanes in board order',
        params: BoardParams,
        response: { 200: Data(Type.Array(Lane)), ...AUTH_ERRORS },
      },
    },
    async (request) => ({ data: await lanes.listLanes(actorOf(request), request.params.boardId) }),
  );

  app.post(
    '/boards/:boardId/lanes',
    {
      schema: {
        tags,
        summary: 'Append a lane',
        params: BoardParams,
        body: Type.Object({ name: Type.String() }, { additionalProperties: false }),
        response: { 201: Data(Lane), ...AUTH_ERRORS },
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
        summary: 'Rename and/or move a lane',
        params: LaneParams,
        body: Type.Object(
          {
            name: Type.Optional(Type.String()),
            position: Type.Optional(Type.Integer({ description: 'Past the end means last.' })),
          },
          { additionalProperties: false },
        ),
        response: { 200: Data(Lane), ...AUTH_ERRORS },
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
        summary: 'Delete a lane and its tasks (edit)',
        params: LaneParams,
        response: { 204: NoContent, ...AUTH_ERRORS },
      },
    },
    async (request, reply) => {
      await lanes.deleteLane(actorOf(request), request.params.boardId, request.params.laneId);
      return reply.status(204).send(null);
    },
  );
};
