import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { TaskService } from '../../domain/tasks/task-service.js';
import { BoardParams, Data, NoContent, TaskParams } from '../../schemas/common.js';
import { READ_ERRORS, WRITE_ERRORS } from '../../schemas/errors.js';
import {
  CreateTaskBody,
  MoveTaskBody,
  Task,
  TaskListQuery,
  TaskPlacement,
  TaskSummary,
  TaskUpdate,
  UpdateTaskBody,
} from '../../schemas/tasks.js';
import { actorOf } from '../plugins/authentication.js';
import { assigneeRoutes } from './assignees.js';

export const taskRoutes: FastifyPluginAsyncTypebox<{ tasks: TaskService }> = async (app, { tasks }) => {
  const tags = ['Tasks'];
  await app.register(assigneeRoutes, { tasks });

  app.get(
    '/boards/:boardId/tasks',
    {
      schema: {
        tags,
        operationId: 'listTasks',
        summary: 'List tasks',
        description:
          'Tasks in board order: lane position, then task position, each with its `assignees`. Archived tasks only with `includeArchived=true`; `assignee=ID|me` keeps the tasks assigned to that member. Needs `read`.',
        params: BoardParams,
        querystring: TaskListQuery,
        response: { 200: Data(Type.Array(TaskSummary)), ...READ_ERRORS },
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
        operationId: 'createTask',
        summary: 'Create a task',
        description:
          'Appends a task to the lane `laneId`, which must be a lane of this board (else 400). Title, description and tags are trimmed; tags lose duplicates. Needs `edit`. Fires `task.created`.',
        params: BoardParams,
        body: CreateTaskBody,
        response: { 201: Data(Task), ...WRITE_ERRORS },
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
        operationId: 'getTask',
        summary: 'Get a task',
        description: 'The task with its description and the time of its last captured turn. Needs `read`.',
        params: TaskParams,
        response: { 200: Data(Task), ...READ_ERRORS },
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
        operationId: 'updateTask',
        summary: 'Update a task',
        description:
          'Changes the fields sent and returns `{id, <each field sent, with its new value>, updatedAt}`. `updatedAt` changes, and `task.updated` fires, only when a value actually changed. Archiving takes the task out of its lane order; unarchiving appends it. Needs `edit`.',
        params: TaskParams,
        body: UpdateTaskBody,
        response: { 200: Data(TaskUpdate), ...WRITE_ERRORS },
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
        operationId: 'moveTask',
        summary: 'Move a task',
        description:
          'Moves the task to `position` in lane `laneId` (omitted or past the end: appended); the other tasks shift. An archived task cannot be moved (400). Needs `edit`. Fires `task.moved`.',
        params: TaskParams,
        body: MoveTaskBody,
        response: { 200: Data(TaskPlacement), ...WRITE_ERRORS },
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
        operationId: 'deleteTask',
        summary: 'Delete a task',
        description:
          'Deletes the task with its comments, todos, turns and assets, and closes the gap in its lane. Needs `edit`. Fires `task.deleted`.',
        params: TaskParams,
        response: { 204: NoContent, ...WRITE_ERRORS },
      },
    },
    async (request, reply) => {
      await tasks.deleteTask(actorOf(request), request.params.boardId, request.params.taskId);
      return reply.status(204).send(null);
    },
  );
};
