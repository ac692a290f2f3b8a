import type { Executor, TodoRow } from '../schema.js';

/** A task's todos by iteration, then the task-wide order. */
export async function listTodos(db: Executor, taskId: string): Promise<TodoRow[]> {
  return db
    .selectFrom('todos')
    .selectAll()
    .where('task_id', '=', taskId)
    .orderBy('iteration')
    .orderBy('sort_order')
    .orderBy('id')
    .execute();
}

export async function findTodo(db: Executor, taskId: string, todoId: string): Promise<TodoRow | undefined> {
  return db
    .selectFrom('todos')
    .selectAll()
    .where('id', '=', todoId)
    .where('task_id', '=', taskId)
    .executeTakeFirst();
}

/** One more than the task's greatest order, or 0 for its first todo. */
export async function nextTodoOrder(db: Executor, taskId: string): Promise<number> {
  const row = await db
    .selectFrom('todos')
    .select((eb) => eb.fn.max('sort_order').as('last'))
    .where('task_id', '=', taskId)
    .executeTakeFirst();
  const last = row?.last;
  return last === null || last === undefined ? 0 : Number(last) + 1;
}

export async function insertTodo(db: Executor, row: TodoRow): Promise<void> {
  await db.insertInto('todos').values(row).execute();
}

export async function updateTodo(
  db: Executor,
  todoId: string,
  changes: Partial<Pick<TodoRow, 'text' | 'done' | 'iteration' | 'sort_order' | 'updated_at'>>,
): Promise<void> {
  await db.updateTable('todos').set(changes).where('id', '=', todoId).execute();
}

export async function deleteTodo(db: Executor, todoId: string): Promise<void> {
  await db.deleteFrom('todos').where('id', '=', todoId).execute();
}
