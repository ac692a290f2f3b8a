import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { BoardService } from '../../domain/boards/board-service.js';
import { actorOf } from '../plugins/authentication.js';
import { AUTH_ERRORS, BoardParams, Data, NoContent, Timestamp } from '../schemas/common.js';

const Permission = Type.Union([Type.Literal('read'), Type.Literal('edit')]);

const BoardSummary = Type.Object({ id: Type.String(), name: Type.String(), permission: Permission });
const Board = Type.Object({ id: Type.String(), name: Type.String(), createdAt: Timestamp });
const BoardDetail = Type.Object({
  id: Type.String(),
  name: Type.String(),
  lanes: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), taskCount: Type.Integer() })),
});

export const boardRoutes: FastifyPluginAsyncTypebox<{ boards: BoardService }> = async (app, { boards }) => {
  const tags = ['Boards'];

  app.get(
    '/boards',
    {
      schema: {
        tags,
        summary: 'List the boards this key can access',
        response: { 200: Data(Type.Array(BoardSummary)), ...AUTH_ERRORS },
      },
    },
    async (request) => ({ data: await boards.listBoards(actorOf(request)) }),
  );

  app.post(
    '/boards',
    {
      schema: {
        tags,
        summary: 'Create a board; the calling key gets edit access to it',
        body: Type.Object({ name: Type.String() }, { additionalProperties: false }),
        response: { 201: Data(Board), ...AUTH_ERRORS },
      },
    },
    async (request, reply) => {
      const board = await boards.createBoard(actorOf(request), request.body);
      return reply.status(201).send({ data: board });
    },
  );

  app.get(
    '/boards/:boardId',
    {
      schema: {
        tags,
        summary: 'Board detail with its lanes',
        params: BoardParams,
        response: { 200: Data(BoardDetail), ...AUTH_ERRORS },
      },
    },
    async (request) => ({ data: await boards.getBoard(actorOf(request), request.params.boardId) }),
  );

  app.delete(
    '/boards/:boardId',
    {
      schema: {
        tags,
        summary: 'Delete a board and everything in it (edit)',
        params: BoardParams,
        response: { 204: NoContent, ...AUTH_ERRORS },
      },
    },
    async (request, reply) => {
      await boards.deleteBoard(actorOf(request), request.params.boardId);
      return reply.status(204).send(null);
    },
  );
};
