import type { Static } from '@sinclair/typebox';
import { lockTaskRow } from '../../db/repositories/task-locks.js';
import { taskExists } from '../../db/repositories/tasks.js';
import {
  deleteTodo,
  findTodo,
  insertTodo,
  listTodos,
  nextTodoOrder,
  updateTodo,
} from '../../db/repositories/todos.js';
import type { Executor, TodoRow } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';
import { isoNow } from '../../lib/time.js';
import type { CreateTodoBody, UpdateTodoBody } from '../../schemas/todos.js';
import { MAX_ITERATION } from '../../schemas/todos.js';
import { requireBoardPermission } from '../access.js';
import { type Actor, type AuthorSource, authorSource } from '../actor.js';
import { invalid, notFound } from '../errors.js';
import type { ServiceDeps } from '../services.js';
import { LIMITS, requiredText } from '../text-rules.js';
import { inTransaction, type Tx } from '../transaction.js';

export interface Todo {
  id: string;
  text: string;
  iteration: number;
  done: boolean;
  /** Task-wide order; the list sorts by iteration, then by this. */
  order: number;
  source: AuthorSource;
  createdAt: string;
  updatedAt: string;
}

export type NewTodo = Static<typeof CreateTodoBody>;
export type TodoChanges = Static<typeof UpdateTodoBody>;

export { MAX_ITERATION };

function toTodo(row: TodoRow): Todo {
  return {
    id: row.id,
    text: row.text,
    iteration: row.iteration,
    done: row.done === 1,
    order: row.sort_order,
    source: row.source,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function checkIteration(iteration: number): number {
  if (!Number.isInteger(iteration) || iteration < 0 || iteration > MAX_ITERATION) {
    throw invalid('iteration', `must be an integer from 0 to ${MAX_ITERATION}.`);
  }
  return iteration;
}

export class TodoService {
  constructor(private readonly deps: ServiceDeps) {}

  /** The task's todos by iteration, then task-wide order. */
  async listTodos(actor: Actor, boardId: string, taskId: string): Promise<Todo[]> {
    requireBoardPermission(actor, boardId, 'read');
    const db = this.deps.database.kysely;
    await requireTask(db, boardId, taskId);
    return (await listTodos(db, taskId)).map(toTodo);
  }

  async getTodo(actor: Actor, boardId: string, taskId: string, todoId: string): Promise<Todo> {
    requireBoardPermission(actor, boardId, 'read');
    return toTodo(await existingTodo(this.deps.database.kysely, boardId, taskId, todoId));
  }

  /** Adds a todo with the next order of the task. */
  async createTodo(actor: Actor, boardId: string, taskId: string, input: NewTodo): Promise<Todo> {
    requireBoardPermission(actor, boardId, 'edit');
    const text = requiredText('text', input.text, LIMITS.todoText);
    const iteration = checkIteration(input.iteration);
    const source = authorSource(actor, input.source);
    return inTransaction(this.deps.database, async (tx) => {
      await this.lockTask(tx, boardId, taskId);
      const now = isoNow(this.deps.clock);
      const row: TodoRow = {
        id: newId('todo'),
        task_id: taskId,
        board_id: boardId,
        text,
        iteration,
        done: 0,
        sort_order: await nextTodoOrder(tx.db, taskId),
        source,
        created_at: now,
        updated_at: now,
      };
      await insertTodo(tx.db, row);
      const todo = toTodo(row);
      await this.recordTodo(tx, actor, 'todo.created', boardId, todo, taskId);
      return todo;
    });
  }

  /** Applies the fields sent; `updatedAt` and `todo.updated` only when a value actually changed. */
  async updateTodo(
    actor: Actor,
    boardId: string,
    taskId: string,
    todoId: string,
    input: TodoChanges,
  ): Promise<Todo> {
    requireBoardPermission(actor, boardId, 'edit');
    const text = input.text === undefined ? undefined : requiredText('text', input.text, LIMITS.todoText);
    const iteration = input.iteration === undefined ? undefined : checkIteration(input.iteration);
    return inTransaction(this.deps.database, async (tx) => {
      const row = await existingTodo(tx.db, boardId, taskId, todoId);
      const changes: Parameters<typeof updateTodo>[2] = {};
      if (text !== undefined && text !== row.text) changes.text = text;
      if (input.done !== undefined && (input.done ? 1 : 0) !== row.done) changes.done = input.done ? 1 : 0;
      if (iteration !== undefined && iteration !== row.iteration) changes.iteration = iteration;
      if (Object.keys(changes).length === 0) return toTodo(row);
      changes.updated_at = isoNow(this.deps.clock);
      await updateTodo(tx.db, todoId, changes);
      const todo = toTodo({ ...row, ...changes });
      await this.recordTodo(tx, actor, 'todo.updated', boardId, todo, taskId);
      return todo;
    });
  }

  async deleteTodo(actor: Actor, boardId: string, taskId: string, todoId: string): Promise<void> {
    requireBoardPermission(actor, boardId, 'edit');
    await inTransaction(this.deps.database, async (tx) => {
      await existingTodo(tx.db, boardId, taskId, todoId);
      await deleteTodo(tx.db, todoId);
      await this.deps.activities.record(tx, actor, {
        type: 'todo.deleted',
        boardId,
        taskId,
        data: { task_id: taskId, todo_id: todoId },
      });
    });
  }

  /**
   * Gives the task's todos the order of `orderedIds`, which must name each of them exactly once. Each
   * todo whose order changes gets a new `updatedAt` and a `todo.updated` event. Returns the list.
   */
  async reorderTodos(actor: Actor, boardId: string, taskId: string, orderedIds: string[]): Promise<Todo[]> {
    requireBoardPermission(actor, boardId, 'edit');
    return inTransaction(this.deps.database, async (tx) => {
      await this.lockTask(tx, boardId, taskId);
      const rows = await listTodos(tx.db, taskId);
      checkPermutation(orderedIds, rows);
      const byId = new Map(rows.map((row) => [row.id, row]));
      const now = isoNow(this.deps.clock);
      const reordered: TodoRow[] = [];
      for (const [order, id] of orderedIds.entries()) {
        const row = byId.get(id) as TodoRow;
        if (row.sort_order === order) {
          reordered.push(row);
          continue;
        }
        const updated = { ...row, sort_order: order, updated_at: now };
        await updateTodo(tx.db, id, { sort_order: order, updated_at: now });
        await this.recordTodo(tx, actor, 'todo.updated', boardId, toTodo(updated), taskId, true);
        reordered.push(updated);
      }
      reordered.sort((a, b) => a.iteration - b.iteration || a.sort_order - b.sort_order);
      return reordered.map(toTodo);
    });
  }

  /** Serialises order changes per task (next order, reorder). */
  private async lockTask(tx: Tx, boardId: string, taskId: string): Promise<void> {
    if (!(await lockTaskRow(tx, boardId, taskId))) throw notFound('Task');
  }

  private async recordTodo(
    tx: Tx,
    actor: Actor,
    type: 'todo.created' | 'todo.updated',
    boardId: string,
    todo: Todo,
    taskId: string,
    reordered = false,
  ): Promise<void> {
    await this.deps.activities.record(tx, actor, {
      type,
      boardId,
      taskId,
      // `reordered`: the change is its order, by a reorder (a history shows the reorder once).
      data: { task_id: taskId, todo_id: todo.id, todo, ...(reordered ? { reordered: true } : {}) },
    });
  }
}

function checkPermutation(orderedIds: readonly string[], rows: readonly TodoRow[]): void {
  const known = new Set(rows.map((row) => row.id));
  const seen = new Set<string>();
  for (const id of orderedIds) {
    if (!known.has(id)) throw invalid('orderedIds', `contains \`${id}\`, which is not a todo of this task.`);
    if (seen.has(id)) throw invalid('orderedIds', `contains \`${id}\` more than once.`);
    seen.add(id);
  }
  if (seen.size !== known.size) {
    throw invalid('orderedIds', `must list all ${known.size} todos of the task; ${seen.size} were given.`);
  }
}

async function requireTask(db: Executor, boardId: string, taskId: string): Promise<void> {
  if (!(await taskExists(db, boardId, taskId))) throw notFound('Task');
}

async function existingTodo(db: Executor, boardId: string, taskId: string, todoId: string): Promise<TodoRow> {
  await requireTask(db, boardId, taskId);
  const row = await findTodo(db, taskId, todoId);
  if (!row) throw notFound('Todo');
  return row;
}
