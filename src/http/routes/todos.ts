import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { TodoService } from '../../domain/todos/todo-service.js';
import { Data, NoContent, TaskParams } from '../../schemas/common.js';
import { READ_ERRORS, WRITE_ERRORS } from '../../schemas/errors.js';
import { CreateTodoBody, ReorderTodosBody, Todo, TodoParams, UpdateTodoBody } from '../../schemas/todos.js';
import { actorOf } from '../plugins/authentication.js';

export const todoRoutes: FastifyPluginAsyncTypebox<{ todos: TodoService }> = async (app, { todos }) => {
  const tags = ['Todos'];

  app.get(
    '/boards/:boardId/tasks/:taskId/todos',
    {
      schema: {
        tags,
        operationId: 'listTodos',
        summary: 'List todos',
        description: "The task's todos sorted by `iteration`, then `order`. Needs `read`.",
        params: TaskParams,
        response: { 200: Data(Type.Array(Todo)), ...READ_ERRORS },
      },
    },
    async (request) => {
      const { boardId, taskId } = request.params;
      return { data: await todos.listTodos(actorOf(request), boardId, taskId) };
    },
  );

  app.post(
    '/boards/:boardId/tasks/:taskId/todos',
    {
      schema: {
        tags,
        operationId: 'createTodo',
        summary: 'Add a todo',
        description: 'Adds a todo; it gets the next `order` of the task. Needs `edit`. Fires `todo.created`.',
        params: TaskParams,
        body: CreateTodoBody,
        response: { 201: Data(Todo), ...WRITE_ERRORS },
      },
    },
    async (request, reply) => {
      const { boardId, taskId } = request.params;
      const todo = await todos.createTodo(actorOf(request), boardId, taskId, request.body);
      return reply.status(201).send({ data: todo });
    },
  );

  app.post(
    '/boards/:boardId/tasks/:taskId/todos/reorder',
    {
      schema: {
        tags,
        operationId: 'reorderTodos',
        summary: 'Reorder todos',
        description:
          '`orderedIds` must list every todo id of the task exactly once (anything else: 400). Returns the ordered list. Each todo whose order changed fires `todo.updated`. Needs `edit`.',
        params: TaskParams,
        body: ReorderTodosBody,
        response: { 200: Data(Type.Array(Todo)), ...WRITE_ERRORS },
      },
    },
    async (request) => {
      const { boardId, taskId } = request.params;
      return {
        data: await todos.reorderTodos(actorOf(request), boardId, taskId, request.body.orderedIds),
      };
    },
  );

  app.get(
    '/boards/:boardId/tasks/:taskId/todos/:todoId',
    {
      schema: {
        tags,
        operationId: 'getTodo',
        summary: 'Get a todo',
        description: 'Needs `read`.',
        params: TodoParams,
        response: { 200: Data(Todo), ...READ_ERRORS },
      },
    },
    async (request) => {
      const { boardId, taskId, todoId } = request.params;
      return { data: await todos.getTodo(actorOf(request), boardId, taskId, todoId) };
    },
  );

  app.patch(
    '/boards/:boardId/tasks/:taskId/todos/:todoId',
    {
      schema: {
        tags,
        operationId: 'updateTodo',
        summary: 'Update a todo',
        description:
          'Changes `text`, `done` and/or `iteration`; returns the whole todo. Needs `edit`. Fires `todo.updated` when something changed.',
        params: TodoParams,
        body: UpdateTodoBody,
        response: { 200: Data(Todo), ...WRITE_ERRORS },
      },
    },
    async (request) => {
      const { boardId, taskId, todoId } = request.params;
      return { data: await todos.updateTodo(actorOf(request), boardId, taskId, todoId, request.body) };
    },
  );

  app.delete(
    '/boards/:boardId/tasks/:taskId/todos/:todoId',
    {
      schema: {
        tags,
        operationId: 'deleteTodo',
        summary: 'Delete a todo',
        description: 'Needs `edit`. Fires `todo.deleted`.',
        params: TodoParams,
        response: { 204: NoContent, ...WRITE_ERRORS },
      },
    },
    async (request, reply) => {
      const { boardId, taskId, todoId } = request.params;
      await todos.deleteTodo(actorOf(request), boardId, taskId, todoId);
      return reply.status(204).send(null);
    },
  );
};
