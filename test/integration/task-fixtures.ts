import { expect } from 'vitest';
import type { Dialect } from '../../src/db/schema.js';
import { API } from '../support/api.js';
import { ManualClock } from '../support/clock.js';
import { useTestApp } from '../support/dialects.js';
import type { TestApp, TestAppOptions } from '../support/test-app.js';
import { RecordingEvents } from './recording-events.js';

export { API, expectError } from '../support/api.js';

export { ManualClock } from '../support/clock.js';
export { RecordingEvents } from './recording-events.js';

export interface BoardFixture {
  /** Holds edit on the board (it created it). */
  key: string;
  boardId: string;
  laneIds: string[];
  /** `/api/ext/v1/boards/:boardId` */
  url: string;
}

/** A board with `laneNames` made through the API by `key` (by default a new key with no grants). */
export async function createBoard(
  t: TestApp,
  laneNames: string[] = ['Todo', 'Doing'],
  key?: string,
): Promise<BoardFixture> {
  key ??= (await t.createKey({})).key;
  const board = await t.request(key, 'POST', `${API}/boards`, { name: 'Tasks board' });
  expect(board.statusCode).toBe(201);
  const boardId = board.json().data.id as string;
  const url = `${API}/boards/${boardId}`;
  const laneIds: string[] = [];
  for (const name of laneNames) {
    const lane = await t.request(key, 'POST', `${url}/lanes`, { name });
    expect(lane.statusCode).toBe(201);
    laneIds.push(lane.json().data.id as string);
  }
  return { key, boardId, laneIds, url };
}

export interface TaskData {
  id: string;
  shortId: string;
  title: string;
  laneId: string;
  position: number | null;
  updatedAt: string;
  [field: string]: unknown;
}

export async function createTask(
  t: TestApp,
  fx: BoardFixture,
  body: Record<string, unknown> & { laneId: string },
): Promise<TaskData> {
  const res = await t.request(fx.key, 'POST', `${fx.url}/tasks`, { title: 'A task', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as TaskData;
}

/** Creates tasks titled by `titles` at the end of the lane, in order. */
export async function createTasks(
  t: TestApp,
  fx: BoardFixture,
  laneId: string,
  titles: string[],
): Promise<TaskData[]> {
  const tasks: TaskData[] = [];
  for (const title of titles) tasks.push(await createTask(t, fx, { laneId, title }));
  return tasks;
}

/** Titles of a lane's active tasks in list order, with their positions checked to be exactly 0..n-1. */
export async function laneTitles(t: TestApp, fx: BoardFixture, laneId: string): Promise<string[]> {
  const res = await t.request(fx.key, 'GET', `${fx.url}/tasks?laneId=${laneId}`);
  expect(res.statusCode).toBe(200);
  const items = res.json().data as TaskData[];
  expect(items.map((task) => task.position)).toEqual(items.map((_, i) => i));
  return items.map((task) => task.title);
}

/**
 * The set-up of the task suites: the test app with its events recorded and a manual clock (and any other
 * `options`); `freshBoard`, a new board whose own events are taken, so a test sees only the events it
 * causes; and `freshTask`, a task alone on a new one-lane board, with the URL of its `resource`.
 */
export function useTaskApp(dialect: Dialect, options: Omit<TestAppOptions, 'events' | 'clock'> = {}) {
  const events = new RecordingEvents();
  const clock = new ManualClock();
  const t = useTestApp(dialect, { ...options, events, clock });
  async function freshBoard(laneNames?: string[]): Promise<BoardFixture> {
    const fx = await createBoard(t, laneNames);
    events.take();
    return fx;
  }
  async function freshTask(resource: string): Promise<{ fx: BoardFixture; task: TaskData; url: string }> {
    const fx = await createBoard(t, ['Todo']);
    const task = await createTask(t, fx, { laneId: fx.laneIds[0] as string });
    events.take();
    return { fx, task, url: `${fx.url}/tasks/${task.id}/${resource}` };
  }
  return { t, events, clock, freshBoard, freshTask };
}
