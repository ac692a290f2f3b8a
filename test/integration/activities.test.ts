import { beforeAll, expect, it } from 'vitest';
import { ActivityRetention } from '../../src/domain/activities/activity-retention.js';
import { type Actor, CLI_OPERATOR } from '../../src/domain/actor.js';
import type { BoardChange } from '../../src/live/change-feed.js';
import { API } from '../support/api.js';
import { describeEachDialect, useTestApp } from '../support/dialects.js';
import type { TestApp } from '../support/test-app.js';
import { waitUntil } from '../support/wait.js';
import { RecordingEvents } from './recording-events.js';
import { ManualClock } from './task-fixtures.js';

const PERSON: Actor = { kind: 'user', origin: 'ui', userId: 'usr_ada', name: 'Ada', role: 'member' };

describeEachDialect('activities', (dialect) => {
  let key: { id: string; key: string };
  const clock = new ManualClock();
  const failing = new RecordingEvents();

  const t = useTestApp(dialect, { clock, events: failing });
  beforeAll(async () => {
    key = await t.createKey('all', 'Build bot');
  });

  const call = async (method: 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => {
    const res = await t.request(key.key, method, `${API}${url}`, body);
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.statusCode === 204 ? null : (res.json().data as { id: string });
  };

  async function boardWithTask() {
    const board = await call('POST', '/boards', { name: 'History' });
    const lane = await call('POST', `/boards/${board?.id}/lanes`, { name: 'Todo' });
    const task = await call('POST', `/boards/${board?.id}/tasks`, { title: 'Write', laneId: lane?.id });
    return { boardId: board?.id as string, laneId: lane?.id as string, taskId: task?.id as string };
  }

  it('records one typed activity per API change, with the key as actor, newest first', async () => {
    const { boardId, laneId, taskId } = await boardWithTask();
    await call('PATCH', `/boards/${boardId}/tasks/${taskId}`, { priority: 2 });
    const list = await t.services.activities.listForBoard(CLI_OPERATOR, boardId);
    expect(list.data.map((a) => a.type)).toEqual([
      'task.updated',
      'task.created',
      'lane.created',
      'board.created',
    ]);
    const ids = list.data.map((a) => a.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    expect(list.nextBefore).toBeNull();
    const [updated] = list.data;
    expect(updated).toEqual({
      id: expect.any(Number),
      type: 'task.updated',
      boardId,
      taskId,
      actor: { kind: 'api_key', id: key.id, name: 'Build bot' },
      origin: 'api',
      data: { task_id: taskId, changes: { priority: 2 } },
      createdAt: new Date(clock.ms).toISOString(),
    });
    const created = list.data[1];
    expect(created?.data).toEqual({ task_id: taskId, title: 'Write', laneId });
  });

  it('pages by id and reads a task history apart from its board', async () => {
    const { boardId, taskId } = await boardWithTask();
    for (const title of ['a', 'b', 'c']) await call('PATCH', `/boards/${boardId}/tasks/${taskId}`, { title });
    const other = await call('POST', `/boards/${boardId}/tasks`, {
      title: 'Other',
      laneId: (await t.services.boards.getBoard(CLI_OPERATOR, boardId)).lanes[0]?.id,
    });

    const first = await t.services.activities.listForTask(CLI_OPERATOR, boardId, taskId, { limit: 2 });
    expect(first.data.map((a) => a.data.changes)).toEqual([{ title: 'c' }, { title: 'b' }]);
    expect(first.nextBefore).toBe(first.data[1]?.id);
    const second = await t.services.activities.listForTask(CLI_OPERATOR, boardId, taskId, {
      limit: 2,
      before: first.nextBefore as number,
    });
    expect(second.data.map((a) => a.type)).toEqual(['task.updated', 'task.created']);
    expect(second.nextBefore).toBeNull();

    const all = await t.services.activities.listForTask(CLI_OPERATOR, boardId, taskId);
    expect(all.data.every((a) => a.taskId === taskId)).toBe(true);
    expect(all.data.some((a) => a.taskId === other?.id)).toBe(false);
    const after = await t.services.activities.listForBoard(CLI_OPERATOR, boardId, {
      after: first.data[0]?.id as number,
    });
    expect(after.data.map((a) => a.taskId)).toEqual([other?.id]);
  });

  it('records CLI and web UI changes with their actor, and only API changes fire webhooks', async () => {
    failing.take();
    const board = await t.services.boards.createBoard(CLI_OPERATOR, { name: 'Console' });
    await t.services.lanes.createLane(PERSON, board.id, { name: 'Mine' });
    const list = await t.services.activities.listForBoard(CLI_OPERATOR, board.id);
    expect(list.data.map((a) => [a.type, a.origin, a.actor])).toEqual([
      ['lane.created', 'ui', { kind: 'user', id: 'usr_ada', name: 'Ada' }],
      ['board.created', 'cli', { kind: 'system', id: null, name: 'CLI' }],
    ]);
    expect(failing.take()).toEqual([]);
  });

  it('records nothing for a change that rolls back', async () => {
    const { boardId } = await boardWithTask();
    const before = await t.services.activities.listForBoard(CLI_OPERATOR, boardId);
    failing.failNext = true;
    const res = await t.request(key.key, 'POST', `${API}/boards/${boardId}/lanes`, { name: 'Lost' });
    expect(res.statusCode).toBe(500);
    const after = await t.services.activities.listForBoard(CLI_OPERATOR, boardId);
    expect(after.data).toEqual(before.data);
    expect((await t.services.boards.getBoard(CLI_OPERATOR, boardId)).lanes.map((l) => l.name)).toEqual([
      'Todo',
    ]);
  });

  it('checks permission, existence and paging arguments', async () => {
    const { boardId, taskId } = await boardWithTask();
    const stranger = await keyActor(t, {});
    await expect(t.services.activities.listForBoard(stranger, boardId)).rejects.toMatchObject({
      code: 'forbidden',
    });
    await expect(t.services.activities.listForBoard(CLI_OPERATOR, 'brd_missing')).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(
      t.services.activities.listForTask(CLI_OPERATOR, boardId, 'task_missing'),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      t.services.activities.listForTask(CLI_OPERATOR, boardId, taskId, { limit: 0 }),
    ).rejects.toMatchObject({ code: 'validation_error' });
  });

  it('publishes "board changed up to activity N" after commit, to that board only', async () => {
    const { boardId } = await boardWithTask();
    const { boardId: otherBoard } = await boardWithTask();
    // Notifications of the set-up's commits may still arrive (PostgreSQL delivers them
    // asynchronously): only those past the newest activity so far count.
    const newestId = async () =>
      (await t.services.activities.listForBoard(CLI_OPERATOR, otherBoard)).data[0]?.id ?? 0;
    const baseline = await newestId();
    const all: BoardChange[] = [];
    const allElsewhere: BoardChange[] = [];
    const stop = t.runtime.changeFeed.subscribe(boardId, (change) => all.push(change));
    const stopOther = t.runtime.changeFeed.subscribe(otherBoard, (change) => allElsewhere.push(change));
    const heard = all.filter.bind(all, (c) => (c.toId ?? 0) > baseline);
    await t.runtime.changeFeed.ready();
    try {
      await call('POST', `/boards/${boardId}/lanes`, { name: 'Doing' });
      const [newest] = (await t.services.activities.listForBoard(CLI_OPERATOR, boardId)).data;
      const change = await waitUntil('the change notification', async () => heard()[0]);
      // Up to the new activity; on PostgreSQL a window of commits is merged into one notification,
      // so it may start at the set-up's activities (a reader skips ids it has seen).
      expect(change).toEqual({ boardId, fromId: expect.any(Number), toId: newest?.id });
      expect(change.fromId).toBeLessThanOrEqual(newest?.id ?? 0);

      // A rolled-back change publishes nothing; the next commit is heard after it.
      failing.failNext = true;
      await t.request(key.key, 'POST', `${API}/boards/${boardId}/lanes`, { name: 'Lost' });
      await call('POST', `/boards/${boardId}/lanes`, { name: 'Done' });
      const [latest] = (await t.services.activities.listForBoard(CLI_OPERATOR, boardId)).data;
      await waitUntil('the second notification', async () => heard()[1]);
      expect(heard()).toEqual([change, { boardId, fromId: latest?.id, toId: latest?.id }]);
      expect(allElsewhere.filter((c) => (c.toId ?? 0) > baseline)).toEqual([]);
    } finally {
      stop();
      stopOther();
    }
  });

  it('reports one range for a transaction that records several activities', async () => {
    const { boardId, taskId } = await boardWithTask();
    const todos = [];
    for (const text of ['one', 'two', 'three']) {
      todos.push(await call('POST', `/boards/${boardId}/tasks/${taskId}/todos`, { text, iteration: 0 }));
    }
    const heard: BoardChange[] = [];
    const stop = t.runtime.changeFeed.subscribe(boardId, (change) => heard.push(change));
    await t.runtime.changeFeed.ready();
    try {
      const order = todos.map((todo) => todo?.id).reverse();
      const res = await t.request(key.key, 'POST', `${API}/boards/${boardId}/tasks/${taskId}/todos/reorder`, {
        orderedIds: order,
      });
      expect(res.statusCode).toBe(200);
      const recorded = (await t.services.activities.listForBoard(CLI_OPERATOR, boardId)).data.filter(
        (a) => a.type === 'todo.updated',
      );
      expect(recorded.length).toBeGreaterThan(1);
      const ids = recorded.map((a) => a.id);
      // Earlier commits' notifications may still arrive (PostgreSQL delivers them asynchronously).
      const fromReorder = () => heard.filter((c) => (c.toId ?? 0) >= Math.min(...ids));
      await waitUntil('the reorder notification', async () => fromReorder()[0]);
      // One notification covers them all (on PostgreSQL it may also cover commits just before).
      expect(fromReorder()).toHaveLength(1);
      expect(fromReorder()[0]).toMatchObject({ boardId, toId: Math.max(...ids) });
      expect(fromReorder()[0]?.fromId).toBeLessThanOrEqual(Math.min(...ids));
    } finally {
      stop();
    }
  });

  it.skipIf(dialect !== 'postgres')(
    'PostgreSQL: commits close together are heard as one range per board',
    async () => {
      const { boardId } = await boardWithTask();
      const heard: BoardChange[] = [];
      const stop = t.runtime.changeFeed.subscribe(boardId, (change) => heard.push(change));
      await t.runtime.changeFeed.ready();
      try {
        // Far above any real id, so set-up notifications still in flight cannot be confused with these.
        t.runtime.changeFeed.onCommitted([{ id: 900_000_005, boardId }]);
        t.runtime.changeFeed.onCommitted([
          { id: 900_000_007, boardId },
          { id: 900_000_006, boardId },
        ]);
        const ours = () => heard.filter((c) => (c.toId ?? 0) > 900_000_000 && (c.toId ?? 0) <= 900_000_007);
        await waitUntil('the merged notification', async () => ours()[0]);
        // Notifications keep their order: once a later commit is heard, any other one for these three
        // would have been heard too.
        t.runtime.changeFeed.onCommitted([{ id: 900_000_010, boardId }]);
        await waitUntil('a later notification', async () => heard.find((c) => (c.toId ?? 0) >= 900_000_010));
        // One notification for the three (the set-up's commits, just before, may be in it too).
        expect(ours()).toHaveLength(1);
        expect(ours()[0]).toMatchObject({ boardId, toId: 900_000_007 });
        expect(ours()[0]?.fromId).toBeLessThanOrEqual(900_000_005);
      } finally {
        stop();
      }
    },
  );

  it('prunes activities older than the retention', async () => {
    const { boardId } = await boardWithTask();
    const count = async () => (await t.services.activities.listForBoard(CLI_OPERATOR, boardId)).data.length;
    expect(await count()).toBe(3);
    const retention = new ActivityRetention({
      database: t.db.database,
      clock,
      log: { warn: () => {} },
      retentionMs: 60_000,
    });
    clock.ms += 30_000;
    expect(await retention.pruneOnce()).toBe(0);
    expect(await count()).toBe(3);
    clock.ms += 31_000;
    await call('POST', '/boards', { name: 'Newer' }); // the newest activity is always kept
    expect(await retention.pruneOnce()).toBeGreaterThanOrEqual(3);
    expect(await count()).toBe(0);
  });

  it('keeps the newest activity, so ids keep increasing after everything older is pruned', async () => {
    const { boardId } = await boardWithTask();
    const newest = (await t.services.activities.listForBoard(CLI_OPERATOR, boardId)).data[0];
    const retention = new ActivityRetention({
      database: t.db.database,
      clock,
      log: { warn: () => {} },
      retentionMs: 1_000,
    });
    clock.ms += 10_000;
    await retention.pruneOnce();
    const kept = await t.services.activities.listForBoard(CLI_OPERATOR, boardId);
    expect(kept.data.map((a) => a.id)).toEqual([newest?.id]);
    const board = await call('POST', '/boards', { name: 'After pruning' });
    const next = (await t.services.activities.listForBoard(CLI_OPERATOR, board?.id as string)).data[0];
    expect(Number(next?.id)).toBeGreaterThan(Number(newest?.id));
  });
});

/** An API key actor with the given grants, as authentication would build it. */
async function keyActor(t: TestApp, grants: Record<string, 'read' | 'edit'>): Promise<Actor> {
  const { key } = await t.createKey(grants, 'Stranger');
  const actor = await t.services.apiKeys.authenticate(key);
  if (!actor) throw new Error('key did not authenticate');
  return actor;
}
