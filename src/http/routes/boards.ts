import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { BoardService } from '../../domain/boards/board-service.js';
import { Board, BoardDetail, BoardSummary, CreateBoardBody } from '../../schemas/boards.js';
import { BoardParams, Data, NoContent } from '../../schemas/common.js';
import { CREATE_ERRORS, LIST_ERRORS, READ_ERRORS, WRITE_ERRORS } from '../../schemas/errors.js';
import { actorOf } from '../plugins/authentication.js';

export const boardRoutes: FastifyPluginAsyncTypebox<{ boards: BoardService }> = async (app, { boards }) => {
  const tags = ['Boards'];

  app.get(
    '/boards',
    {
      schema: {
        tags,
        operationId: 'listBoards',
        summary: 'List boards',
        description:
          "Boards the calling key holds a grant on, oldest first, each with the key's permission. All-boards keys see every board with `edit`.",
        response: { 200: Data(Type.Array(BoardSummary)), ...LIST_ERRORS },
      },
    },
    async (request) => ({ data: await boards.listBoards(actorOf(request)) }),
  );

  app.post(
    '/boards',
    {
      schema: {
        tags,
        operationId: 'createBoard',
        summary: 'Create a board',
        description:
          'Creates an empty board (no lanes). Any valid key may create a board; the calling key then holds `edit` on it. Fires `board.created`.',
        body: CreateBoardBody,
        response: { 201: Data(Board), ...CREATE_ERRORS },
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
        operationId: 'getBoard',
        summary: 'Get a board',
        description:
          "The board with its lanes in board order; `taskCount` counts each lane's non-archived tasks. Needs `read`.",
        params: BoardParams,
        response: { 200: Data(BoardDetail), ...READ_ERRORS },
      },
    },
    async (request) => ({ data: await boards.getBoard(actorOf(request), request.params.boardId) }),
  );

  app.delete(
    '/boards/:boardId',
    {
      schema: {
        tags,
        operationId: 'deleteBoard',
        summary: 'Delete a board',
        description:
          'Deletes the board with its lanes, tasks, comments, todos, turns and assets. Needs `edit`. Fires `board.deleted`.',
        params: BoardParams,
        response: { 204: NoContent, ...WRITE_ERRORS },
      },
    },
    async (request, reply) => {
      await boards.deleteBoard(actorOf(request), request.params.boardId);
      return reply.status(204).send(null);
    },
  );
};
