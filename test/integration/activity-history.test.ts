import { beforeAll, expect, it } from 'vitest';
import { CLI_OPERATOR } from '../../src/domain/actor.js';
import { API } from '../support/api.js';
import { describeEachDialect, useTestApp } from '../support/dialects.js';

describeEachDialect('activity history: a reorder is one entry', (dialect) => {
  let key: { key: string; id: string };
  const t = useTestApp(dialect);
  beforeAll(async () => {
    key = await t.createKey('all', 'Build bot');
  });

  const call = async (method: 'POST' | 'PATCH', url: string, body?: unknown) => {
    const res = await t.request(key.key, method, `${API}${url}`, body);
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json().data as { id: string } & Array<{ id: string }>;
  };

  it('shows one "todos.reordered" entry per reorder, while each moved todo still fires todo.updated', async () => {
    const board = await call('POST', '/boards', { name: 'Reorders' });
    const lane = await call('POST', `/boards/${board.id}/lanes`, { name: 'Todo' });
    const task = await call('POST', `/boards/${board.id}/tasks`, { title: 'T', laneId: lane.id });
    const todos = `/boards/${board.id}/tasks/${task.id}/todos`;
    const ids: string[] = [];
    for (const text of ['a', 'b', 'c', 'd']) ids.push((await call('POST', todos, { text, iteration: 0 })).id);
    await call('PATCH', `${todos}/${ids[0]}`, { done: true });
    await call('POST', `${todos}/reorder`, { orderedIds: [...ids].reverse() });

    const history = await t.services.activities.listForTask(CLI_OPERATOR, board.id, task.id, {
      grouped: true,
    });
    expect(
      history.data.map((a) => [a.type, a.data.count ?? null]),
      JSON.stringify(history.data.map((a) => [a.type, a.createdAt, a.actor])),
    ).toEqual([
      ['todos.reordered', 4],
      ['todo.updated', null],
      ['todo.created', null],
      ['todo.created', null],
      ['todo.created', null],
      ['todo.created', null],
      ['task.created', null],
    ]);
    expect(history.data[0]?.actor).toEqual({ kind: 'api_key', id: key.id, name: 'Build bot' });
    // The board's history says the same; the events underneath are one per todo moved.
    const boardHistory = await t.services.activities.listForBoard(CLI_OPERATOR, board.id, {
      limit: 4,
      grouped: true,
    });
    expect(boardHistory.data.map((a) => a.type)).toEqual(['todos.reordered']);
    const ungrouped = await t.services.activities.listForTask(CLI_OPERATOR, board.id, task.id);
    const updates = ungrouped.data.filter((a) => a.type === 'todo.updated');
    expect(updates.map((a) => a.data.reordered ?? false)).toEqual([true, true, true, true, false]);
  });
});
