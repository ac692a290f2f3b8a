import { describe, expect, it } from 'vitest';
import { describeEachDialect } from '../support/dialects.js';
import {
  API,
  createTask,
  createTasks,
  expectError,
  laneTitles,
  type TaskData,
  useTaskApp,
} from './task-fixtures.js';

describeEachDialect('tasks', (dialect) => {
  const { t, events, clock, freshBoard } = useTaskApp(dialect);

  describe('create', () => {
    it('appends to the lane and returns the whole task with defaults and normalised values', async () => {
      const fx = await freshBoard();
      const [laneId] = fx.laneIds as [string];
      const first = await createTask(t, fx, { laneId, title: '  Write docs  ' });
      expect(first).toEqual({
        id: expect.stringMatching(/^task_/),
        shortId: expect.stringMatching(/^[0-9a-z]{8}$/),
        title: 'Write docs',
        description: '',
        laneId,
        priority: 0,
        tags: [],
        archived: false,
        position: 0,
        createdAt: new Date(clock.ms).toISOString(),
        updatedAt: new Date(clock.ms).toISOString(),
        lastTurnAt: null,
        assignees: [],
      });
      const second = await createTask(t, fx, {
        laneId,
        title: 'Ship',
        description: ' details ',
        priority: 3,
        tags: [' ui ', 'api', 'ui'],
      });
      expect(second).toMatchObject({
        position: 1,
        description: 'details',
        priority: 3,
        tags: ['ui', 'api'],
      });
      expect(second.shortId).not.toBe(first.shortId);

      expect(events.take()).toEqual([
        {
          type: 'task.created',
          boardId: fx.boardId,
          data: { task_id: first.id, title: 'Write docs', laneId },
        },
        { type: 'task.created', boardId: fx.boardId, data: { task_id: second.id, title: 'Ship', laneId } },
      ]);
    });

    it('rejects invalid bodies with validation_error naming the field, recording nothing', async () => {
      const fx = await freshBoard();
      const other = await freshBoard();
      const laneId = fx.laneIds[0];
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ laneId }, 'title'],
        [{ title: '   ', laneId }, 'title'],
        [{ title: 'x'.repeat(501), laneId }, 'title'],
        [{ title: 'T' }, 'laneId'],
        [{ title: 'T', laneId: 'lane_missing' }, 'laneId'],
        [{ title: 'T', laneId: other.laneIds[0] }, 'laneId'],
        [{ title: 'T', laneId, priority: 5 }, 'priority'],
        [{ title: 'T', laneId, priority: -1 }, 'priority'],
        [{ title: 'T', laneId, priority: 1.5 }, 'priority'],
        [{ title: 'T', laneId, priority: '3' }, 'priority'],
        [{ title: 'T', laneId, tags: 'ui' }, 'tags'],
        [{ title: 'T', laneId, tags: [' '] }, 'tags'],
        [{ title: 'T', laneId, tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }, 'tags'],
        [{ title: 'T', laneId, description: 'x'.repeat(100_001) }, 'description'],
        [{ title: 'T', laneId, color: 'red' }, 'color'],
      ];
      for (const [body, field] of cases) {
        const res = await t.request(fx.key, 'POST', `${fx.url}/tasks`, body);
        expectError(res, 400, 'validation_error', field);
      }
      expect(events.take()).toEqual([]);
      expect(await laneTitles(t, fx, laneId as string)).toEqual([]);
    });
  });

  describe('list and detail', () => {
    it('orders by lane position, then task position, and filters by lane', async () => {
      const fx = await freshBoard(['A', 'B']);
      const [laneA, laneB] = fx.laneIds as [string, string];
      await createTasks(t, fx, laneB, ['b0', 'b1']);
      await createTasks(t, fx, laneA, ['a0', 'a1', 'a2']);
      const res = await t.request(fx.key, 'GET', `${fx.url}/tasks`);
      expect(res.statusCode).toBe(200);
      const items = res.json().data as TaskData[];
      expect(items.map((i) => [i.title, i.position])).toEqual([
        ['a0', 0],
        ['a1', 1],
        ['a2', 2],
        ['b0', 0],
        ['b1', 1],
      ]);
      expect(Object.keys(items[0] as object).sort()).toEqual([
        'archived',
        'assignees',
        'createdAt',
        'id',
        'laneId',
        'position',
        'priority',
        'shortId',
        'tags',
        'title',
        'updatedAt',
      ]);

      // Reordering the lanes reorders the list.
      await t.request(fx.key, 'PATCH', `${fx.url}/lanes/${laneB}`, { position: 0 });
      const reordered = await t.request(fx.key, 'GET', `${fx.url}/tasks`);
      expect((reordered.json().data as TaskData[]).map((i) => i.title)).toEqual([
        'b0',
        'b1',
        'a0',
        'a1',
        'a2',
      ]);

      const filtered = await t.request(fx.key, 'GET', `${fx.url}/tasks?laneId=${laneB}`);
      expect((filtered.json().data as TaskData[]).map((i) => i.title)).toEqual(['b0', 'b1']);
    });

    it('rejects a laneId filter that is not a lane of the board', async () => {
      const fx = await freshBoard();
      const other = await freshBoard();
      for (const laneId of ['lane_missing', other.laneIds[0]]) {
        expectError(
          await t.request(fx.key, 'GET', `${fx.url}/tasks?laneId=${laneId}`),
          400,
          'validation_error',
          'laneId',
        );
      }
      expectError(
        await t.request(fx.key, 'GET', `${fx.url}/tasks?includeArchived=yes`),
        400,
        'validation_error',
        'includeArchived',
      );
    });

    it('filters by shortId prefix, case-insensitively', async () => {
      const fx = await freshBoard();
      const laneId = fx.laneIds[0] as string;
      const tasks = await createTasks(t, fx, laneId, ['one', 'two', 'three', 'four']);
      const target = tasks[2] as TaskData;
      for (const prefix of [target.shortId, target.shortId.slice(0, 6).toUpperCase()]) {
        const res = await t.request(fx.key, 'GET', `${fx.url}/tasks?shortIdPrefix=${prefix}`);
        expect(res.statusCode).toBe(200);
        const items = res.json().data as TaskData[];
        expect(items.map((i) => i.id)).toContain(target.id);
        for (const item of items) expect(item.shortId.startsWith(prefix.toLowerCase())).toBe(true);
      }
      const exact = await t.request(fx.key, 'GET', `${fx.url}/tasks?shortIdPrefix=${target.shortId}`);
      expect((exact.json().data as TaskData[]).map((i) => i.id)).toEqual([target.id]);
      // Every short id starts with one of 0-9a-z; a prefix outside the alphabet matches nothing.
      for (const prefix of ['~', '%7B', `${target.shortId}0`]) {
        const none = await t.request(fx.key, 'GET', `${fx.url}/tasks?shortIdPrefix=${prefix}`);
        expect(none.json().data).toEqual([]);
      }
      // Prefixes only match within the board.
      const other = await freshBoard();
      const elsewhere = await t.request(
        other.key,
        'GET',
        `${other.url}/tasks?shortIdPrefix=${target.shortId}`,
      );
      expect(elsewhere.json().data).toEqual([]);
    });

    it('returns detail with description and lastTurnAt; 404 for missing tasks and other boards', async () => {
      const fx = await freshBoard();
      const task = await createTask(t, fx, { laneId: fx.laneIds[0] as string, description: 'More' });
      const res = await t.request(fx.key, 'GET', `${fx.url}/tasks/${task.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: task });
      expect(res.json().data).toMatchObject({ description: 'More', lastTurnAt: null });

      expectError(await t.request(fx.key, 'GET', `${fx.url}/tasks/task_missing`), 404, 'not_found');
      const other = await freshBoard();
      const { key: allKey } = await t.createKey('all');
      expectError(await t.request(allKey, 'GET', `${other.url}/tasks/${task.id}`), 404, 'not_found');
      expectError(await t.request(allKey, 'GET', `${API}/boards/brd_missing/tasks`), 404, 'not_found');
      expectError(
        await t.request(allKey, 'GET', `${API}/boards/brd_missing/tasks/${task.id}`),
        404,
        'not_found',
      );
    });
  });

  describe('permissions', () => {
    it('lets a read key read but not change; a key without a grant gets 403 whether or not the board exists', async () => {
      const fx = await freshBoard();
      const laneId = fx.laneIds[0] as string;
      const task = await createTask(t, fx, { laneId });
      events.take();
      const { key: readKey } = await t.createKey({ [fx.boardId]: 'read' });
      const { key: strangerKey } = await t.createKey({});
      const taskUrl = `${fx.url}/tasks/${task.id}`;

      expect((await t.request(readKey, 'GET', `${fx.url}/tasks`)).statusCode).toBe(200);
      expect((await t.request(readKey, 'GET', taskUrl)).statusCode).toBe(200);
      const mutations: Array<[string, string, unknown?]> = [
        ['POST', `${fx.url}/tasks`, { title: 'x', laneId }],
        ['PATCH', taskUrl, { title: 'x' }],
        ['POST', `${taskUrl}/move`, { laneId }],
        ['DELETE', taskUrl],
      ];
      for (const [method, url, body] of mutations) {
        expectError(await t.request(readKey, method as 'POST', url, body), 403, 'forbidden');
        expectError(await t.request(strangerKey, method as 'POST', url, body), 403, 'forbidden');
      }
      for (const url of [`${fx.url}/tasks`, taskUrl, `${API}/boards/brd_missing/tasks`]) {
        expectError(await t.request(strangerKey, 'GET', url), 403, 'forbidden');
      }
      expectError(await t.request(null, 'GET', `${fx.url}/tasks`), 401, 'missing_auth');
      expect(events.take()).toEqual([]);
      expect((await t.request(fx.key, 'GET', taskUrl)).json().data.title).toBe('A task');
    });
  });
});
