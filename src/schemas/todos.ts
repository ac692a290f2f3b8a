import { Type } from '@sinclair/typebox';
import { AuthorSource, Id, Timestamp } from './common.js';
import { LIMITS } from './limits.js';
import { RequiredText } from './text.js';

/** The largest iteration both databases store in an integer column. */
export const MAX_ITERATION = 2_147_483_647;

const Iteration = Type.Integer({ minimum: 0, maximum: MAX_ITERATION });
const TodoText = RequiredText(LIMITS.todoText, { description: 'Trimmed; 1..2 000 characters.' });

export const Todo = Type.Object(
  {
    id: Type.String(),
    text: Type.String(),
    iteration: Type.Integer(),
    done: Type.Boolean(),
    order: Type.Integer({ description: 'Task-wide order; the list sorts by iteration, then order.' }),
    source: AuthorSource,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  {
    examples: [
      {
        id: 'todo_Rt5Yh2KwQa',
        text: 'Write the migration',
        iteration: 1,
        done: false,
        order: 0,
        source: 'api',
        createdAt: '2026-11-21T10:00:00.000Z',
        updatedAt: '2026-11-21T10:05:12.345Z',
      },
    ],
  },
);

export const TodoParams = Type.Object({
  boardId: Id('Board id'),
  taskId: Id('Task id'),
  todoId: Id('Todo id'),
});

export const CreateTodoBody = Type.Object(
  {
    text: TodoText,
    iteration: Iteration,
    source: Type.Optional(Type.Union([Type.Literal('api'), Type.Literal('agent')])),
  },
  { additionalProperties: false, examples: [{ text: 'Write the migration', iteration: 1 }] },
);

export const ReorderTodosBody = Type.Object(
  {
    orderedIds: Type.Array(Id('Todo id'), {
      maxItems: 10_000,
      uniqueItems: true,
      description: 'Every todo id of the task exactly once, in the new order.',
    }),
  },
  { additionalProperties: false, examples: [{ orderedIds: ['todo_Rt5Yh2KwQa', 'todo_Pn8Dd3JxLe'] }] },
);

export const UpdateTodoBody = Type.Object(
  {
    text: Type.Optional(TodoText),
    done: Type.Optional(Type.Boolean()),
    iteration: Type.Optional(Iteration),
  },
  { additionalProperties: false, examples: [{ done: true }] },
);
