import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { TaskService } from '../../domain/tasks/task-service.js';
import { actorOf } from '../plugins/authentication.js';
import { AUTH_ERRORS, BoardParams, Data, Id, NoContent, Timestamp } from '../schemas/common.js';

const Priority = Type.Integer({
  minimum: 0,
  maximum: 4,
  description: '0 none, 1 low, 2 medium, 3 high, 4 urgent.',
});
const Tags = Type.Array(Type.String(), {
  description: 'Trimmed, 1..50 characters each, at most 50, no duplicates.',
});
const Position = Type.Union([Type.Integer(), Type.Null()], {
  description: "Index among the lane's non-archived tasks (0..n-1); null while archived.",
});

const taskSummaryFields = {
  id: Type.String(),
  shortId: Type.String({ description: 'Short lowercase identifier, unique across the service.' }),
  title: Type.String(),
  laneId: Type.String(),
  priority: Priority,
  tags: Type.Array(Type.String()),
  archived: Type.Boolean(),
  position: Position,
  createdAt: Timestamp,
  updatedAt: Timestamp,
};
const TaskSummary = Type.Object(taskSummaryFields);
const Task = Type.Object({
  ...taskSummaryFields,
  description: Type.String(),
  lastTurnAt: Type.Union([Timestamp, Type.Null()]),
});
const TaskUpdate = Type.Object({
  id: Type.String(),
  title: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  priority: Type.Optional(Priority),
  tags: Type.Optional(Type.Array(Type.String())),
  archived: Type.Optional(Type.Boolean()),
  updatedAt: Timestamp,
});
const TaskPlacement = Type.Object({ id: Type.String(), laneId: Type.String(), position: Type.Integer() });

const TaskParams = Type.Object({ boardId: Id('Board id'), taskId: Id('Task id') });

export const taskRoutes: FastifyPluginAsyncTypebox<{ tasks: TaskService }> = async (app, { tasks }) => {
  const tags = ['Tasks'];

  app.get(
    '/boards/:boardId/tasks',
    {
      schema: {
        tags,
        summary: 'List tasks in board order (lane position, then task position)',
        params: BoardParams,
        querystring: Type.Object({
          laneId: Type.Optional(Id('Only tasks of this lane')),
          includeArchived: Type.Optional(Type.Boolean({ description: '`true` includes archived tasks.' })),
          shortIdPrefix: Type.Optional(
            Type.String({ minLength: 1, maxLength: 100, description: 'Case-insensitive shortId prefix.' }),
          ),
        }),
        response: { 200: Data(Type.Array(TaskSummary)), ...AUTH_ERRORS },
      },
    },
    async (request) => ({
      data: await tasks.listTasks(actorOf(request), request.params.boardId, request.query),
    }),
  );

  app.post(
    '/boards/:boardId/tasks',
    {
      schema: {
        tags,
        summary: 'Create a task at the end of a lane',
        params: BoardParams,
        body: Type.Object(
          {
            title: Type.String(),
            laneId: Type.String(),
            description: Type.Optional(Type.String()),
            priority: Type.Optional(Priority),
            tags: Type.Optional(Tags),
          },
          { additionalProperties: false },
        ),
        response: { 201: Data(Task), ...AUTH_ERRORS },
      },
    },
    async (request, reply) => {
      const task = await tasks.createTask(actorOf(request), request.params.boardId, request.body);
      return reply.status(201).send({ data: task });
    },
  );

  app.get(
    '/boards/:boardId/tasks/:taskId',
    {
      schema: {
        tags,
        summary: 'Task detail',
        params: TaskParams,
        response: { 200: Data(Task), ...AUTH_ERRORS },
      },
    },
    async (request) => {
      const { boardId, taskId } = request.params;
      return { data: await tasks.getTask(actorOf(request), boardId, taskId) };
    },
  );

  app.patch(
    '/boards/:boardId/tasks/:taskId',
    {
      schema: {
        tags,
        summary: 'Update a task; returns the fields sent with their new values',
        params: TaskParams,
        body: Type.Object(
          {
            title: Type.Optional(Type.String()),
            description: Type.Optional(Type.String()),
            priority: Type.Optional(Priority),
            tags: Type.Optional(Tags),
            archived: Type.Optional(
              Type.Boolean({ description: 'Archiving takes the task out of its lane order.' }),
            ),
          },
          { additionalProperties: false },
        ),
        response: { 200: Data(TaskUpdate), ...AUTH_ERRORS },
      },
    },
    async (request) => {
      const { boardId, taskId } = request.params;
      return { data: await tasks.updateTask(actorOf(request), boardId, taskId, request.body) };
    },
  );

  app.post(
    '/boards/:boardId/tasks/:taskId/move',
    {
      schema: {
        tags,
        summary: 'Move a task within its lane or to another lane',
        params: TaskParams,
        body: Type.Object(
          {
            laneId: Type.String(),
            position: Type.Optional(
              Type.Integer({ minimum: 0, description: 'Omitted or past the end: appended.' }),
            ),
          },
          { additionalProperties: false },
        ),
        response: { 200: Data(TaskPlacement), ...AUTH_ERRORS },
      },
    },
    async (request) => {
      const { boardId, taskId } = request.params;
      return { data: await tasks.moveTask(actorOf(request), boardId, taskId, request.body) };
    },
  );

  app.delete(
    '/boards/:boardId/tasks/:taskId',
    {
      schema: {
        tags,
        summary: 'Delete a task with its comments, todos and turns',
        params: TaskParams,
        response: { 204: NoContent, ...AUTH_ERRORS },
      },
    },
    async (request, reply) => {
      await tasks.deleteTask(actorOf(request), request.params.boardId, request.params.taskId);
      return reply.status(204).send(null);
    },
  );
};
