import { verify as verifyGithubStyle } from '@octokit/webhooks-methods';
import { expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES as EVENT_TYPES } from '../../src/domain/activities/activity-types.js';
import { describeEachDialect } from '../support/dialects.js';
import { useWebhookApp } from '../support/webhook-app.js';
import { useReceiver } from '../support/webhook-receiver.js';

const API = '/api/ext/v1';

interface Payload {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

describeEachDialect('every event type end to end', (dialect) => {
  const receiver = useReceiver();
  const t = useWebhookApp(dialect);

  it('fires all 14 event types for API mutations with the contract data shapes', async () => {
    const { key } = await t.createKey('all');
    const star = await t.createWebhook(key, receiver.url('/star'), ['*']);
    const listed = await t.createWebhook(key, receiver.url('/listed'), [...EVENT_TYPES]);
    const call = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => {
      const res = await t.request(key, method, `${API}${url}`, body);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
      return res.statusCode === 204 ? null : res.json().data;
    };

    const board = await call('POST', '/boards', { name: 'Events' });
    const b = `/boards/${board.id}`;
    const todoLane = await call('POST', `${b}/lanes`, { name: 'Todo' });
    const doneLane = await call('POST', `${b}/lanes`, { name: 'Done' });
    await call('PATCH', `${b}/lanes/${todoLane.id}`, { name: 'Backlog' });
    const task = await call('POST', `${b}/tasks`, { title: 'Write docs', laneId: todoLane.id });
    await call('PATCH', `${b}/tasks/${task.id}`, { title: 'Write the docs', priority: 3 });
    await call('POST', `${b}/tasks/${task.id}/move`, { laneId: doneLane.id });
    const comment = await call('POST', `${b}/tasks/${task.id}/comments`, {
      body: 'Done?',
      authorName: 'Robot',
      source: 'agent',
    });
    await call('DELETE', `${b}/tasks/${task.id}/comments/${comment.id}`);
    const todo = await call('POST', `${b}/tasks/${task.id}/todos`, { text: 'Proofread', iteration: 1 });
    const updatedTodo = await call('PATCH', `${b}/tasks/${task.id}/todos/${todo.id}`, { done: true });
    await call('DELETE', `${b}/tasks/${task.id}/todos/${todo.id}`);
    await call('DELETE', `${b}/tasks/${task.id}`);
    await call('DELETE', `${b}/lanes/${todoLane.id}`);
    await call('DELETE', b);

    const expected: Record<string, Array<Record<string, unknown>>> = {
      'board.created': [{ board_id: board.id, board: { id: board.id, name: 'Events' } }],
      'lane.created': [
        { board_id: board.id, lane_id: todoLane.id, name: 'Todo', position: 0 },
        { board_id: board.id, lane_id: doneLane.id, name: 'Done', position: 1 },
      ],
      'lane.updated': [{ board_id: board.id, lane_id: todoLane.id, name: 'Backlog', position: 0 }],
      'task.created': [{ board_id: board.id, task_id: task.id, title: 'Write docs', laneId: todoLane.id }],
      'task.updated': [
        { board_id: board.id, task_id: task.id, changes: { title: 'Write the docs', priority: 3 } },
      ],
      'task.moved': [
        {
          board_id: board.id,
          task_id: task.id,
          laneId: doneLane.id,
          position: 0,
          fromLaneId: todoLane.id,
          fromPosition: 0,
        },
      ],
      'comment.created': [
        {
          board_id: board.id,
          task_id: task.id,
          comment_id: comment.id,
          authorName: 'Robot',
          source: 'agent',
          mentions: [],
        },
      ],
      'comment.deleted': [{ board_id: board.id, task_id: task.id, comment_id: comment.id }],
      'todo.created': [{ board_id: board.id, task_id: task.id, todo_id: todo.id, todo }],
      'todo.updated': [{ board_id: board.id, task_id: task.id, todo_id: todo.id, todo: updatedTodo }],
      'todo.deleted': [{ board_id: board.id, task_id: task.id, todo_id: todo.id }],
      'task.deleted': [{ board_id: board.id, task_id: task.id }],
      'lane.deleted': [{ board_id: board.id, lane_id: todoLane.id }],
      'board.deleted': [{ board_id: board.id }],
    };
    // The assignment events need members: test/integration/assignees.test.ts covers them end to end.
    const assignment = ['task.assigned', 'task.unassigned'];
    expect(Object.keys(expected).sort()).toEqual(
      EVENT_TYPES.filter((type) => !assignment.includes(type)).sort(),
    );
    const total = Object.values(expected).flat().length;

    for (const [path, hook] of [
      ['/star', star],
      ['/listed', listed],
    ] as const) {
      const arrivals = await receiver.waitForDeliveries(path, total);
      // Delivery is at least once: on a loaded machine an attempt can outlast the time-out and be sent
      // again. A repeat must be the same delivery (same id, byte-identical body); one per delivery counts.
      const requests = [...arrivals.values()];
      const payloads = requests.map((r) => JSON.parse(r.body) as Payload);
      for (const request of requests) {
        const payload = JSON.parse(request.body) as Payload;
        expect(request.headers['x-service-event']).toBe(payload.type);
        expect(payload.id).toMatch(/^evt_/);
        expect(payload.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        expect(
          await verifyGithubStyle(
            hook.secret,
            request.body,
            String(request.headers['x-service-signature-256']),
          ),
        ).toBe(true);
      }
      for (const [type, shapes] of Object.entries(expected)) {
        const got = payloads
          .filter((p) => p.type === type)
          .map((p) => p.data)
          .sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
        const want = [...shapes].sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
        expect(got, `${path} ${type}`).toEqual(want);
      }
    }
    await t.whenIdle();
    expect(receiver.deliveries('/star').size).toBe(total);
    expect(receiver.deliveries('/listed').size).toBe(total);
  });

  it('fires todo.updated for each todo whose order a reorder changed', async () => {
    const { key } = await t.createKey('all');
    await t.createWebhook(key, receiver.url('/reorder'), ['todo.updated']);
    const board = await t.createBoard(key);
    const lane = (await t.request(key, 'POST', `${API}/boards/${board}/lanes`, { name: 'L' })).json().data;
    const task = (
      await t.request(key, 'POST', `${API}/boards/${board}/tasks`, { title: 'T', laneId: lane.id })
    ).json().data;
    const base = `${API}/boards/${board}/tasks/${task.id}/todos`;
    const ids: string[] = [];
    for (const text of ['a', 'b', 'c']) {
      ids.push((await t.request(key, 'POST', base, { text, iteration: 0 })).json().data.id);
    }
    const [a, b, c] = ids as [string, string, string];
    const res = await t.request(key, 'POST', `${base}/reorder`, { orderedIds: [a, c, b] });
    expect(res.statusCode).toBe(200);
    const requests = await receiver.waitFor(2, (r) => r.path === '/reorder');
    await t.whenIdle();
    expect(receiver.on('/reorder')).toHaveLength(2);
    const moved = requests.map((r) => (JSON.parse(r.body) as Payload).data.todo_id).sort();
    expect(moved).toEqual([b, c].sort());
  });
});
