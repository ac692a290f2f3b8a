import { describe, expect, it } from 'vitest';
import { describeEachDialect } from '../support/dialects.js';
import {
  createTask,
  createTasks,
  expectError,
  laneTitles,
  type TaskData,
  useTaskApp,
} from './task-fixtures.js';

describeEachDialect('task updates and deletes', (dialect) => {
  const { t, events, clock, freshBoard } = useTaskApp(dialect);

  describe('update', () => {
    it('returns the fields sent with their new values; only real changes move updatedAt and fire task.updated', async () => {
      const fx = await freshBoard();
      const task = await createTask(t, fx, { laneId: fx.laneIds[0] as string, title: 'Old', tags: ['a'] });
      events.take();
      const url = `${fx.url}/tasks/${task.id}`;

      const later = clock.advance();
      const res = await t.request(fx.key, 'PATCH', url, {
        title: ' New ',
        priority: 0,
        tags: ['a', 'b', 'a'],
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        data: { id: task.id, title: 'New', priority: 0, tags: ['a', 'b'], updatedAt: later },
      });
      expect(events.take()).toEqual([
        {
          type: 'task.updated',
          boardId: fx.boardId,
          data: { task_id: task.id, changes: { title: 'New', tags: ['a', 'b'] } },
        },
      ]);

      // The same values again: nothing changes, nothing is recorded, updatedAt stays.
      clock.advance();
      const same = await t.request(fx.key, 'PATCH', url, {
        title: 'New',
        tags: ['a', 'b'],
        archived: false,
      });
      expect(same.json()).toEqual({
        data: { id: task.id, title: 'New', tags: ['a', 'b'], archived: false, updatedAt: later },
      });
      const empty = await t.request(fx.key, 'PATCH', url, {});
      expect(empty.json()).toEqual({ data: { id: task.id, updatedAt: later } });
      expect(events.take()).toEqual([]);

      const latest = clock.advance();
      const described = await t.request(fx.key, 'PATCH', url, { description: 'Why', priority: 4 });
      expect(described.json().data).toEqual({
        id: task.id,
        description: 'Why',
        priority: 4,
        updatedAt: latest,
      });
      expect(events.take()).toEqual([
        {
          type: 'task.updated',
          boardId: fx.boardId,
          data: { task_id: task.id, changes: { description: 'Why', priority: 4 } },
        },
      ]);
      const detail = await t.request(fx.key, 'GET', url);
      expect(detail.json().data).toMatchObject({
        title: 'New',
        description: 'Why',
        priority: 4,
        tags: ['a', 'b'],
        createdAt: task.createdAt,
        updatedAt: latest,
      });
    });

    it('rejects invalid values and unknown fields, naming the field', async () => {
      const fx = await freshBoard();
      const task = await createTask(t, fx, { laneId: fx.laneIds[0] as string });
      events.take();
      const url = `${fx.url}/tasks/${task.id}`;
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ title: '' }, 'title'],
        [{ title: 7 }, 'title'],
        [{ priority: 5 }, 'priority'],
        [{ priority: null }, 'priority'],
        [{ archived: 'true' }, 'archived'],
        [{ tags: [1] }, 'tags'],
        [{ laneId: fx.laneIds[1] }, 'laneId'],
        [{ shortId: 'abc' }, 'shortId'],
      ];
      for (const [body, field] of cases) {
        expectError(await t.request(fx.key, 'PATCH', url, body), 400, 'validation_error', field);
      }
      expectError(
        await t.request(fx.key, 'PATCH', `${fx.url}/tasks/task_missing`, { title: 'x' }),
        404,
        'not_found',
      );
      expect(events.take()).toEqual([]);
    });

    it('archiving takes the task out of the lane order; unarchiving appends it', async () => {
      const fx = await freshBoard();
      const laneId = fx.laneIds[0] as string;
      const [, t1] = (await createTasks(t, fx, laneId, ['t0', 't1', 't2', 't3'])) as TaskData[];
      events.take();
      const url = `${fx.url}/tasks/${t1?.id}`;

      const archived = await t.request(fx.key, 'PATCH', url, { archived: true });
      expect(archived.json().data).toMatchObject({ id: t1?.id, archived: true });
      expect(events.take()).toEqual([
        {
          type: 'task.updated',
          boardId: fx.boardId,
          data: { task_id: t1?.id, changes: { archived: true } },
        },
      ]);
      expect(await laneTitles(t, fx, laneId)).toEqual(['t0', 't2', 't3']);
      const detail = await t.request(fx.key, 'GET', url);
      expect(detail.json().data).toMatchObject({ archived: true, position: null });

      const withArchived = await t.request(fx.key, 'GET', `${fx.url}/tasks?includeArchived=true`);
      expect((withArchived.json().data as TaskData[]).map((i) => [i.title, i.position, i.archived])).toEqual([
        ['t0', 0, false],
        ['t2', 1, false],
        ['t3', 2, false],
        ['t1', null, true],
      ]);
      const board = await t.request(fx.key, 'GET', fx.url);
      expect(board.json().data.lanes[0].taskCount).toBe(3);

      // Edits while archived keep it archived and out of the order.
      await t.request(fx.key, 'PATCH', url, { title: 't1 edited' });
      expect(await laneTitles(t, fx, laneId)).toEqual(['t0', 't2', 't3']);

      const restored = await t.request(fx.key, 'PATCH', url, { archived: false });
      expect(restored.json().data).toMatchObject({ archived: false });
      expect(await laneTitles(t, fx, laneId)).toEqual(['t0', 't2', 't3', 't1 edited']);
      expect((await t.request(fx.key, 'GET', url)).json().data.position).toBe(3);
      expect(events.take().map((e) => e.data)).toEqual([
        { task_id: t1?.id, changes: { title: 't1 edited' } },
        { task_id: t1?.id, changes: { archived: false } },
      ]);
    });
  });

  describe('delete', () => {
    it('deletes the task, closes the gap and records task.deleted', async () => {
      const fx = await freshBoard();
      const laneId = fx.laneIds[0] as string;
      const [t0, t1] = (await createTasks(t, fx, laneId, ['t0', 't1', 't2'])) as TaskData[];
      events.take();
      const res = await t.request(fx.key, 'DELETE', `${fx.url}/tasks/${t0?.id}`);
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect(events.take()).toEqual([
        { type: 'task.deleted', boardId: fx.boardId, data: { task_id: t0?.id } },
      ]);
      expect(await laneTitles(t, fx, laneId)).toEqual(['t1', 't2']);
      expectError(await t.request(fx.key, 'GET', `${fx.url}/tasks/${t0?.id}`), 404, 'not_found');
      expectError(await t.request(fx.key, 'DELETE', `${fx.url}/tasks/${t0?.id}`), 404, 'not_found');

      // An archived task has no position: deleting it leaves the others alone.
      await t.request(fx.key, 'PATCH', `${fx.url}/tasks/${t1?.id}`, { archived: true });
      expect((await t.request(fx.key, 'DELETE', `${fx.url}/tasks/${t1?.id}`)).statusCode).toBe(204);
      expect(await laneTitles(t, fx, laneId)).toEqual(['t2']);
    });
  });
});
