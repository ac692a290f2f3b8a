import { expect, it } from 'vitest';
import { describeEachDialect } from '../support/dialects.js';
import { type BoardFixture, createTask, expectError, useTaskApp } from './task-fixtures.js';

interface TodoData {
  id: string;
  text: string;
  iteration: number;
  done: boolean;
  order: number;
  source: string;
  createdAt: string;
  updatedAt: string;
}

describeEachDialect('todos', (dialect) => {
  const { t, events, clock, freshTask } = useTaskApp(dialect);

  async function addTodos(
    fx: BoardFixture,
    url: string,
    items: Array<[string, number]>,
  ): Promise<TodoData[]> {
    const created: TodoData[] = [];
    for (const [text, iteration] of items) {
      const res = await t.request(fx.key, 'POST', url, { text, iteration });
      expect(res.statusCode, res.body).toBe(201);
      created.push(res.json().data as TodoData);
    }
    return created;
  }

  const texts = (todos: TodoData[]) => todos.map((todo) => todo.text);

  it('creates todos with the next order, lists them by iteration then order, and records todo.created', async () => {
    const { fx, task, url } = await freshTask('todos');
    const res = await t.request(fx.key, 'POST', url, { text: ' Plan ', iteration: 1, source: 'agent' });
    expect(res.statusCode).toBe(201);
    const plan = res.json().data as TodoData;
    const now = new Date(clock.ms).toISOString();
    expect(plan).toEqual({
      id: expect.stringMatching(/^todo_/),
      text: 'Plan',
      iteration: 1,
      done: false,
      order: 0,
      source: 'agent',
      createdAt: now,
      updatedAt: now,
    });
    const [build, review] = await addTodos(fx, url, [
      ['Build', 0],
      ['Review', 1],
    ]);
    expect([build?.order, review?.order, build?.source]).toEqual([1, 2, 'api']);

    const list = await t.request(fx.key, 'GET', url);
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toEqual([build, plan, review]);
    const one = await t.request(fx.key, 'GET', `${url}/${plan.id}`);
    expect(one.json()).toEqual({ data: plan });

    expect(events.take()).toEqual(
      [plan, build, review].map((todo) => ({
        type: 'todo.created',
        boardId: fx.boardId,
        data: { task_id: task.id, todo_id: todo?.id, todo },
      })),
    );
  });

  it('updates text, done and iteration; only real changes move updatedAt and fire todo.updated', async () => {
    const { fx, task, url } = await freshTask('todos');
    const [todo] = (await addTodos(fx, url, [['Write', 0]])) as [TodoData];
    events.take();
    const later = clock.advance();
    const res = await t.request(fx.key, 'PATCH', `${url}/${todo.id}`, { done: true, text: 'Write tests' });
    expect(res.statusCode).toBe(200);
    const updated = { ...todo, done: true, text: 'Write tests', updatedAt: later };
    expect(res.json()).toEqual({ data: updated });
    expect(events.take()).toEqual([
      {
        type: 'todo.updated',
        boardId: fx.boardId,
        data: { task_id: task.id, todo_id: todo.id, todo: updated },
      },
    ]);

    clock.advance();
    const same = await t.request(fx.key, 'PATCH', `${url}/${todo.id}`, {
      done: true,
      text: ' Write tests ',
      iteration: 0,
    });
    expect(same.json()).toEqual({ data: updated });
    expect((await t.request(fx.key, 'PATCH', `${url}/${todo.id}`, {})).json()).toEqual({ data: updated });
    expect(events.take()).toEqual([]);

    const moved = await t.request(fx.key, 'PATCH', `${url}/${todo.id}`, { iteration: 3, done: false });
    expect(moved.json().data).toMatchObject({ iteration: 3, done: false, order: 0 });
    expect(events.take()).toHaveLength(1);
  });

  it('rejects invalid bodies naming the field', async () => {
    const { fx, url } = await freshTask('todos');
    const [todo] = (await addTodos(fx, url, [['Write', 0]])) as [TodoData];
    events.take();
    const createCases: Array<[unknown, string]> = [
      [{ iteration: 0 }, 'text'],
      [{ text: ' ', iteration: 0 }, 'text'],
      [{ text: 'x'.repeat(2001), iteration: 0 }, 'text'],
      [{ text: 'A' }, 'iteration'],
      [{ text: 'A', iteration: -1 }, 'iteration'],
      [{ text: 'A', iteration: 1.5 }, 'iteration'],
      [{ text: 'A', iteration: '1' }, 'iteration'],
      [{ text: 'A', iteration: 0, source: 'user' }, 'source'],
      [{ text: 'A', iteration: 0, done: true }, 'done'],
    ];
    for (const [body, field] of createCases) {
      expectError(await t.request(fx.key, 'POST', url, body), 400, 'validation_error', field);
    }
    const updateCases: Array<[unknown, string]> = [
      [{ text: '' }, 'text'],
      [{ done: 'yes' }, 'done'],
      [{ iteration: -2 }, 'iteration'],
      [{ order: 3 }, 'order'],
    ];
    for (const [body, field] of updateCases) {
      expectError(
        await t.request(fx.key, 'PATCH', `${url}/${todo.id}`, body),
        400,
        'validation_error',
        field,
      );
    }
    expect((await t.request(fx.key, 'POST', url, { text: 'x'.repeat(2000), iteration: 0 })).statusCode).toBe(
      201,
    );
    events.take();
  });

  it('reorders with a permutation of all todo ids, firing todo.updated for each todo whose order changed', async () => {
    const { fx, task, url } = await freshTask('todos');
    const [a, b, c, d] = (await addTodos(fx, url, [
      ['a', 0],
      ['b', 0],
      ['c', 0],
      ['d', 1],
    ])) as [TodoData, TodoData, TodoData, TodoData];
    events.take();
    const later = clock.advance();

    const res = await t.request(fx.key, 'POST', `${url}/reorder`, { orderedIds: [c.id, b.id, a.id, d.id] });
    expect(res.statusCode).toBe(200);
    const list = res.json().data as TodoData[];
    expect(texts(list)).toEqual(['c', 'b', 'a', 'd']);
    expect(list.map((todo) => todo.order)).toEqual([0, 1, 2, 3]);
    // b and d kept their order: no event and no new updatedAt for them.
    expect(list.map((todo) => todo.updatedAt === later)).toEqual([true, false, true, false]);
    const recorded = events.take();
    expect(recorded.map((e) => [e.type, e.data.todo_id])).toEqual([
      ['todo.updated', c.id],
      ['todo.updated', a.id],
    ]);
    expect(recorded[0]?.data).toEqual({ task_id: task.id, todo_id: c.id, todo: list[0], reordered: true });
    expect((await t.request(fx.key, 'GET', url)).json().data).toEqual(list);

    // Iteration still sorts first: d (iteration 1) stays last even when put first.
    const again = await t.request(fx.key, 'POST', `${url}/reorder`, {
      orderedIds: [d.id, a.id, b.id, c.id],
    });
    expect(texts(again.json().data)).toEqual(['a', 'b', 'c', 'd']);
    events.take();

    const otherTask = await createTask(t, fx, { laneId: fx.laneIds[0] as string });
    const [foreign] = await addTodos(fx, `${fx.url}/tasks/${otherTask.id}/todos`, [['x', 0]]);
    events.take();
    const bad: unknown[] = [
      { orderedIds: [a.id, b.id, c.id] },
      { orderedIds: [a.id, b.id, c.id, d.id, d.id] },
      { orderedIds: [a.id, b.id, c.id, c.id] },
      { orderedIds: [a.id, b.id, c.id, foreign?.id] },
      { orderedIds: [a.id, b.id, c.id, d.id, 'todo_missing'] },
      { orderedIds: 'a' },
      {},
      { orderedIds: [a.id, b.id, c.id, d.id], extra: 1 },
    ];
    for (const body of bad) {
      const r = await t.request(fx.key, 'POST', `${url}/reorder`, body);
      expectError(r, 400, 'validation_error');
      expect(r.json().error.message).toMatch(/orderedIds|extra/);
    }
    expect(events.take()).toEqual([]);
    expect(texts((await t.request(fx.key, 'GET', url)).json().data)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('deletes todos; 404 for missing todos, todos of other tasks and missing tasks', async () => {
    const { fx, task, url } = await freshTask('todos');
    const [a, b] = (await addTodos(fx, url, [
      ['a', 0],
      ['b', 0],
    ])) as [TodoData, TodoData];
    const otherTask = await createTask(t, fx, { laneId: fx.laneIds[0] as string });
    const otherUrl = `${fx.url}/tasks/${otherTask.id}/todos`;
    events.take();

    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const body = method === 'PATCH' ? { done: true } : undefined;
      expectError(await t.request(fx.key, method, `${otherUrl}/${a.id}`, body), 404, 'not_found');
      expectError(await t.request(fx.key, method, `${url}/todo_missing`, body), 404, 'not_found');
      expectError(
        await t.request(fx.key, method, `${fx.url}/tasks/task_missing/todos/${a.id}`, body),
        404,
        'not_found',
      );
    }
    expectError(await t.request(fx.key, 'GET', `${fx.url}/tasks/task_missing/todos`), 404, 'not_found');
    expectError(
      await t.request(fx.key, 'POST', `${fx.url}/tasks/task_missing/todos`, { text: 'x', iteration: 0 }),
      404,
      'not_found',
    );
    expectError(
      await t.request(fx.key, 'POST', `${fx.url}/tasks/task_missing/todos/reorder`, { orderedIds: [] }),
      404,
      'not_found',
    );
    expect(events.take()).toEqual([]);

    const res = await t.request(fx.key, 'DELETE', `${url}/${a.id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(events.take()).toEqual([
      { type: 'todo.deleted', boardId: fx.boardId, data: { task_id: task.id, todo_id: a.id } },
    ]);
    expect((await t.request(fx.key, 'GET', url)).json().data).toEqual([b]);
    // Orders are not renumbered after a delete; a new todo still goes after every existing one.
    const [c] = await addTodos(fx, url, [['c', 0]]);
    expect(c?.order).toBe(2);
    events.take();
  });

  it('needs read for GETs and edit for everything else', async () => {
    const { fx, url } = await freshTask('todos');
    const [todo] = (await addTodos(fx, url, [['a', 0]])) as [TodoData];
    events.take();
    const { key: readKey } = await t.createKey({ [fx.boardId]: 'read' });
    const { key: strangerKey } = await t.createKey({});

    expect((await t.request(readKey, 'GET', url)).statusCode).toBe(200);
    expect((await t.request(readKey, 'GET', `${url}/${todo.id}`)).statusCode).toBe(200);
    const mutations: Array<[string, string, unknown?]> = [
      ['POST', url, { text: 'x', iteration: 0 }],
      ['PATCH', `${url}/${todo.id}`, { done: true }],
      ['POST', `${url}/reorder`, { orderedIds: [todo.id] }],
      ['DELETE', `${url}/${todo.id}`],
    ];
    for (const [method, path, body] of mutations) {
      expectError(await t.request(readKey, method as 'POST', path, body), 403, 'forbidden');
      expectError(await t.request(strangerKey, method as 'POST', path, body), 403, 'forbidden');
    }
    expectError(await t.request(strangerKey, 'GET', url), 403, 'forbidden');
    expectError(await t.request(strangerKey, 'GET', `${url}/${todo.id}`), 403, 'forbidden');
    expect(events.take()).toEqual([]);
    expect((await t.request(fx.key, 'GET', `${url}/${todo.id}`)).json().data).toEqual(todo);
  });

  // PostgreSQL only: on SQLite the app's one connection runs transactions one after another, so this
  // could not catch a locking bug (locking between SQLite processes: sqlite-transactions.test.ts).
  it.skipIf(dialect === 'sqlite')('gives concurrently created todos distinct orders', async () => {
    const { fx, url } = await freshTask('todos');
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) => t.request(fx.key, 'POST', url, { text: `t${i}`, iteration: 0 })),
    );
    for (const res of responses) expect(res.statusCode).toBe(201);
    const orders = responses.map((res) => (res.json().data as TodoData).order).sort((x, y) => x - y);
    expect(orders).toEqual(Array.from({ length: 12 }, (_, i) => i));
    events.take();
  });
});
