import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { ActivityService } from '../../domain/activities/activity-service.js';
import type { BoardService } from '../../domain/boards/board-service.js';
import type { BoardViewService } from '../../domain/boards/board-view-service.js';
import { ActivityPage, BoardView } from '../../schemas/board-view.js';
import { Board, CreateBoardBody } from '../../schemas/boards.js';
import { BoardParams, Data, TaskParams } from '../../schemas/common.js';
import { actorOf } from '../plugins/authentication.js';

export interface BoardViewRouteDeps {
  boards: BoardService;
  boardView: BoardViewService;
  activities: ActivityService;
}

const ActivityPageQuery = Type.Object(
  {
    before: Type.Optional(Type.Integer({ minimum: 0 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
  },
  { additionalProperties: false },
);

/**
 * The web UI's board page (docs/ui-api.md, "Board view and live updates"): the whole board with card
 * data, board rename, and the activity history of a board or task. Registered inside the `/api/ui`
 * scope, behind its session check.
 */
export const boardViewRoutes: FastifyPluginAsyncTypebox<BoardViewRouteDeps> = async (app, deps) => {
  app.get(
    '/boards/:boardId/view',
    {
      schema: {
        params: BoardParams,
        querystring: Type.Object(
          { archived: Type.Optional(Type.Boolean()) },
          { additionalProperties: false },
        ),
        response: { 200: Data(BoardView) },
      },
    },
    async (request) => ({
      data: await deps.boardView.getView(actorOf(request), request.params.boardId, {
        archived: request.query.archived === true,
      }),
    }),
  );

  app.patch(
    '/boards/:boardId',
    { schema: { params: BoardParams, body: CreateBoardBody, response: { 200: Data(Board) } } },
    async (request) => ({
      data: await deps.boards.renameBoard(actorOf(request), request.params.boardId, request.body),
    }),
  );

  app.get(
    '/boards/:boardId/activities',
    { schema: { params: BoardParams, querystring: ActivityPageQuery, response: { 200: ActivityPage } } },
    async (request) =>
      deps.activities.listForBoard(actorOf(request), request.params.boardId, {
        ...request.query,
        grouped: true,
      }),
  );

  app.get(
    '/boards/:boardId/tasks/:taskId/activities',
    { schema: { params: TaskParams, querystring: ActivityPageQuery, response: { 200: ActivityPage } } },
    async (request) =>
      deps.activities.listForTask(actorOf(request), request.params.boardId, request.params.taskId, {
        ...request.query,
        grouped: true,
      }),
  );
};
