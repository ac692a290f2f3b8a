import { Type } from '@sinclair/typebox';
import { TodosResult } from '../outputs.js';
import { boardPath, resolveTask } from '../references.js';
import {
  BoardRef,
  IdempotencyKey,
  ReorderFields,
  TaskRef,
  TodoFields,
  TodoUpdateFields,
} from '../schemas.js';
import { callApi, defineTool, ToolError } from '../tool.js';

const TODOS = '/api/ext/v1/boards/{boardId}/tasks/{taskId}/todos';

interface Todo {
  id: string;
  text: string;
  iteration: number;
  done: boolean;
  order: number;
}

function todoLines(todos: Todo[]): string[] {
  return todos.map((t) => `- [${t.done ? 'x' : ' '}] ${t.text} (${t.id})`);
}

export const addTodos = defineTool({
  name: 'add_todos',
  description: 'Add one or more todos to a task, in order (source `agent`).',
  readOnly: false,
  output: TodosResult,
  rest: [{ operation: `POST ${TODOS}`, at: ['todos', 'items'], fixed: ['source'] }],
  input: Type.Object(
    {
      task: TaskRef,
      board: BoardRef,
      todos: Type.Array(
        Type.Object(
          { text: TodoFields.text, iteration: Type.Optional(TodoFields.iteration) },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: 50, description: 'iteration defaults to 0' },
      ),
      idempotencyKey: IdempotencyKey,
    },
    { additionalProperties: false },
  ),
  async run(args, ctx) {
    const { board, task } = await resolveTask(ctx, args.task, args.board);
    const path = boardPath(board.id, 'tasks', task.id, 'todos');
    const created: Todo[] = [];
    // One POST per todo, in order; with an idempotency key each gets its own derived key, so a retry
    // after a partial failure adds only the todos that are missing.
    for (const [index, todo] of args.todos.entries()) {
      const response = await callApi<{ data: Todo }>(ctx, {
        method: 'POST',
        path,
        body: { text: todo.text, iteration: todo.iteration ?? 0, source: 'agent' },
        ...(args.idempotencyKey === undefined ? {} : { idempotencyKey: `${args.idempotencyKey}:${index}` }),
      });
      created.push(response.data);
    }
    return {
      text: [`Added ${created.length} todo(s) to ${task.shortId}:`, ...todoLines(created)].join('\n'),
      structured: { todos: created, task: { id: task.id, shortId: task.shortId } },
    };
  },
});

export const updateTodos = defineTool({
  name: 'update_todos',
  description:
    'Tick, untick or edit todos (by id, or exact text) of a task, many in one call; orderedIds puts all its todos in that order.',
  readOnly: false,
  output: TodosResult,
  destructive: true,
  idempotent: true,
  rest: [
    { operation: `PATCH ${TODOS}/{todoId}`, at: ['updates', 'items'] },
    { operation: `POST ${TODOS}/reorder`, at: [] },
  ],
  input: Type.Object(
    {
      task: TaskRef,
      board: BoardRef,
      updates: Type.Optional(
        Type.Array(
          Type.Object(
            {
              todo: Type.String({ minLength: 1, maxLength: 2000, description: 'Todo id or exact text' }),
              text: TodoUpdateFields.text,
              done: TodoUpdateFields.done,
              iteration: TodoUpdateFields.iteration,
            },
            { additionalProperties: false },
          ),
          { minItems: 1, maxItems: 100 },
        ),
      ),
      orderedIds: Type.Optional(ReorderFields.orderedIds),
    },
    { additionalProperties: false },
  ),
  async run(args, ctx) {
    if (args.updates === undefined && args.orderedIds === undefined) {
      throw new ToolError('validation_error', 'Pass `updates`, `orderedIds` or both.');
    }
    const { board, task } = await resolveTask(ctx, args.task, args.board);
    const path = boardPath(board.id, 'tasks', task.id, 'todos');
    const existing = (await callApi<{ data: Todo[] }>(ctx, { method: 'GET', path })).data;
    const targets = (args.updates ?? []).map((update) => {
      const todo = existing.find((t) => t.id === update.todo) ?? existing.find((t) => t.text === update.todo);
      if (!todo) {
        throw new ToolError(
          'not_found',
          `Task ${task.shortId} has no todo "${update.todo}".`,
          existing.length ? `Its todos:\n${todoLines(existing).join('\n')}` : 'It has no todos yet.',
        );
      }
      return { todo, update };
    });
    const updated: Todo[] = [];
    for (const { todo, update } of targets) {
      const { todo: _ref, ...fields } = update;
      const response = await callApi<{ data: Todo }>(ctx, {
        method: 'PATCH',
        path: `${path}/${encodeURIComponent(todo.id)}`,
        body: fields,
      });
      updated.push(response.data);
    }
    const lines = updated.length
      ? [`Updated ${updated.length} todo(s) of ${task.shortId}:`, ...todoLines(updated)]
      : [];
    if (args.orderedIds === undefined) {
      return {
        text: lines.join('\n'),
        structured: { todos: updated, task: { id: task.id, shortId: task.shortId } },
      };
    }
    const reordered = await callApi<{ data: Todo[] }>(ctx, {
      method: 'POST',
      path: `${path}/reorder`,
      body: { orderedIds: args.orderedIds },
    });
    return {
      text: [...lines, `Todos of ${task.shortId} now:`, ...todoLines(reordered.data)].join('\n'),
      structured: { todos: reordered.data, task: { id: task.id, shortId: task.shortId } },
    };
  },
});
