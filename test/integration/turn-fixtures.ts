import type { LightMyRequestResponse } from 'fastify';
import { newId, newShortId } from '../../src/lib/ids.js';
import { API } from '../support/api.js';
import type { TestApp } from '../support/test-app.js';
import { createBoard } from './task-fixtures.js';

export { API, expectError } from '../support/api.js';

export interface TaskFixture {
  boardId: string;
  laneId: string;
  taskId: string;
  /** `/api/ext/v1/boards/:boardId/tasks/:taskId/turns` */
  turnsUrl: string;
}

/**
 * A board (created through the API, so `key` holds edit on it), one lane, and a task inserted directly:
 * the turns suites must not depend on the tasks routes.
 */
export async function createTaskFixture(t: TestApp, key: string): Promise<TaskFixture> {
  const { boardId, laneIds } = await createBoard(t, ['Doing'], key);
  const laneId = laneIds[0] as string;
  const taskId = await insertTask(t, boardId, laneId);
  return { boardId, laneId, taskId, turnsUrl: `${API}/boards/${boardId}/tasks/${taskId}/turns` };
}

export async function insertTask(t: TestApp, boardId: string, laneId: string): Promise<string> {
  const id = newId('task');
  const now = new Date().toISOString();
  await t.db.database.kysely
    .insertInto('tasks')
    .values({
      id,
      board_id: boardId,
      lane_id: laneId,
      short_id: newShortId(),
      title: 'Capture me',
      description: '',
      priority: 0,
      tags: '[]',
      archived: 0,
      rank: 0,
      created_at: now,
      updated_at: now,
      last_turn_at: null,
    })
    .execute();
  return id;
}

export async function lastTurnAt(t: TestApp, taskId: string): Promise<string | null> {
  const row = await t.db.database.kysely
    .selectFrom('tasks')
    .select('last_turn_at')
    .where('id', '=', taskId)
    .executeTakeFirstOrThrow();
  return row.last_turn_at;
}

export interface TurnBody {
  source: string;
  sourceId: string;
  role: string;
  content: string;
  capturedAt: string;
  toolUseOnly?: boolean;
}

/** A valid turn; `n` makes the sourceId and the capture second distinct. */
export function turn(n: number, overrides: Partial<TurnBody> = {}): TurnBody {
  return {
    source: 'claude',
    sourceId: `msg-${n}`,
    role: n % 2 === 0 ? 'user' : 'assistant',
    content: `turn ${n}`,
    capturedAt: new Date(Date.UTC(2026, 0, 1, 10, 0, n)).toISOString(),
    ...overrides,
  };
}

export function post(t: TestApp, key: string, url: string, turns: unknown): Promise<LightMyRequestResponse> {
  return t.request(key, 'POST', url, { turns });
}
