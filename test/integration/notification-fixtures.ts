import { expect } from 'vitest';
import { OPERATOR, type UiTestApp } from '../ui/ui-support.js';

const EXT = '/api/ext/v1';

/**
 * What the notification suites start from: two members signed in (Ada and Bob: `names`, or each with a
 * suffix of its own), an integration's key to all boards with `ext` to call the external API as it (the
 * answer's data; anything but a success fails the test), and a board (`boardName`) with lanes Todo and
 * Done and a task (`taskTitle`) in Todo; `base` is the task's path under the API.
 */
export async function notificationScene(
  t: UiTestApp,
  { names, boardName, taskTitle }: { names?: [string, string]; boardName: string; taskTitle: string },
) {
  const suffix = () => Math.random().toString(36).slice(2, 7);
  names ??= [`Ada ${suffix()}`, `Bob ${suffix()}`];
  const ada = await t.person('member', names[0]);
  const bob = await t.person('member', names[1]);
  const key = await t.services.apiKeys.createKey(OPERATOR, { name: 'ci', allBoards: true, grants: [] });
  const ext = async (method: 'POST' | 'PATCH' | 'PUT', url: string, body?: unknown) => {
    const res = await t.app.inject({
      method,
      url: `${EXT}${url}`,
      headers: { authorization: `Bearer ${key.key}` },
      ...(body === undefined ? {} : { payload: body as object }),
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json().data;
  };
  const board = await ext('POST', '/boards', { name: boardName });
  const todo = await ext('POST', `/boards/${board.id}/lanes`, { name: 'Todo' });
  const done = await ext('POST', `/boards/${board.id}/lanes`, { name: 'Done' });
  const task = await ext('POST', `/boards/${board.id}/tasks`, { title: taskTitle, laneId: todo.id });
  return { ada, bob, ext, board, todo, done, task, base: `/boards/${board.id}/tasks/${task.id}` };
}
