import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { MAX_ITERATION, type TodoService } from '../../domain/todos/todo-service.js';
import { actorOf } from '../plugins/authentication.js';
import { AUTH_ERRORS, Data, Id, NoContent, Timestamp } from '../schemas/common.js';

const Iteration = Type.Integer({ minimum: 0, maximum: MAX_ITERATION });

const Todo = Type.Object({
  id: Type.String(),
  text: Type.String(),
  iteration: Type.Integer(),
  done: Type.Boolean(),
  order: Type.Integer({ description: 'Task-wide order; the list sorts by iteration, then order.' }),
  source: Type.Union([Type.Literal('user'), Type.Literal('api'), Type.Literal('agent')]),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

const TaskParams = Type.Object({ boardId: Id('Board id'), taskId: Id('Task id') });
const TodoParams = Type.Object({ boardId: Id('Board id'), taskId: Id('Task id'), todoId: Id('Todo id') });

export const todoRoutes: FastifyPluginAsyncTypebox<{ todos: TodoService }> = async (app, { todos }) => {
  const tags = ['Todos'];

  app.get(
    '/boards/:boardId/tasks/:taskId/todos',
    {
      schema: {
        tags,
        summary: "The task's todos by iteration, then order",
        params: TaskParams,
        response: { 200: Data(Type.Array(Todo)), ...AUTH_ERRORS },
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
        summary: 'Add a todo; it gets the next order of the task',
        params: TaskParams,
        body: Type.Object(
          {
            text: Type.String(),
            iteration: Iteration,
            source: Type.Optional(Type.Union([Type.Literal('api'), Type.Literal('agent')])),
          },
          { additionalProperties: false },
        ),
        response: { 201: Data(Todo), ...AUTH_ERRORS },
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
        summary: "Reorder the task's todos; `orderedIds` lists every todo id exactly once",
        params: TaskParams,
        body: Type.Object(
          { orderedIds: Type.Array(Id('Todo id'), { maxItems: 10_000 }) },
          { additionalProperties: false },
        ),
        response: { 200: Data(Type.Array(Todo)), ...AUTH_ERRORS },
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
        summary: 'One todo',
        params: TodoParams,
        response: { 200: Data(Todo), ...AUTH_ERRORS },
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
        summary: 'Update a todo; returns the whole todo',
        params: TodoParams,
        body: Type.Object(
          {
            text: Type.Optional(Type.String()),
            done: Type.Optional(Type.Boolean()),
            iteration: Type.Optional(Iteration),
          },
          { additionalProperties: false },
        ),
        response: { 200: Data(Todo), ...AUTH_ERRORS },
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
        summary: 'Delete a todo',
        params: TodoParams,
        response: { 204: NoContent, ...AUTH_ERRORS },
      },
    },
    async (request, reply) => {
      const { boardId, taskId, todoId } = request.params;
      await todos.deleteTodo(actorOf(request), boardId, taskId, todoId);
      return reply.status(204).send(null);
    },
  );
};
