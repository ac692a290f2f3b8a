import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect, useTestApp } from '../support/dialects.js';
import { createBoard, createTask } from './task-fixtures.js';

const API = '/api/ext/v1';

/**
 * The contract's limits live in the request schemas, which both validate requests and produce the
 * OpenAPI document. These cases check that the server still answers them with validation_error and a
 * message naming the field, and still accepts what the contract allows (limits apply after trimming).
 */
describeEachDialect('request rules in the schemas', (dialect) => {
  const t = useTestApp(dialect);
  let key: string;
  let boardId: string;
  let laneId: string;
  let taskId: string;

  beforeAll(async () => {
    const board = await createBoard(t, ['Todo'], (await t.createKey('all')).key);
    ({ key, boardId } = board);
    laneId = board.laneIds[0] as string;
    taskId = (await createTask(t, board, { title: 'T', laneId })).id;
  });

  async function expectInvalid(method: 'POST' | 'PATCH', url: string, body: unknown, message: string) {
    const res = await t.request(key, method, url, body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toEqual({ code: 'validation_error', message });
  }

  it('refuses blank and over-long names, titles and texts, naming the field', async () => {
    await expectInvalid('POST', `${API}/boards`, { name: '  \n ' }, '`name` must not be empty.');
    await expectInvalid(
      'POST',
      `${API}/boards/${boardId}/lanes`,
      { name: 'x'.repeat(201) },
      '`name` must be at most 200 characters long.',
    );
    const tasks = `${API}/boards/${boardId}/tasks`;
    await expectInvalid(
      'POST',
      tasks,
      { title: 'y'.repeat(501), laneId },
      '`title` must be at most 500 characters long.',
    );
    await expectInvalid(
      'POST',
      tasks,
      { title: 'ok', laneId, tags: ['a', ' '] },
      '`tags[1]` must not be empty.',
    );
    await expectInvalid(
      'POST',
      tasks,
      { title: 'ok', laneId, tags: Array.from({ length: 51 }, (_, i) => `t${i}`) },
      '`tags` must hold at most 50 items.',
    );
    const comments = `${API}/boards/${boardId}/tasks/${taskId}/comments`;
    await expectInvalid('POST', comments, { body: 'hi', authorName: '' }, '`authorName` must not be empty.');
    const todos = `${API}/boards/${boardId}/tasks/${taskId}/todos`;
    await expectInvalid(
      'POST',
      todos,
      { text: 'z'.repeat(2001), iteration: 0 },
      '`text` must be at most 2000 characters long.',
    );
  });

  it('applies text limits after trimming, and stores the trimmed text', async () => {
    const res = await t.request(key, 'POST', `${API}/boards/${boardId}/tasks`, {
      title: ` ${'y'.repeat(500)}\n`,
      laneId,
      tags: ['  spaced  '],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.title).toBe('y'.repeat(500));
    expect(res.json().data.tags).toEqual(['spaced']);
  });

  it('refuses a negative lane position, duplicate todo ids and bad event filters', async () => {
    await expectInvalid(
      'PATCH',
      `${API}/boards/${boardId}/lanes/${laneId}`,
      { position: -1 },
      '`position` must be >= 0.',
    );
    await expectInvalid(
      'POST',
      `${API}/boards/${boardId}/tasks/${taskId}/todos/reorder`,
      { orderedIds: ['todo_a', 'todo_a'] },
      '`orderedIds` must not hold the same value twice.',
    );
    const url = 'https://hooks.example.com/in';
    await expectInvalid(
      'POST',
      `${API}/webhooks`,
      { url, events: ['*', 'task.created'] },
      '`events` must be exactly ["*"] to receive all events; do not combine "*" with types.',
    );
    const named = await t.request(key, 'POST', `${API}/webhooks`, { url, events: ['asset.created'] });
    expect(named.statusCode).toBe(400);
    expect(named.json().error.message).toMatch(/^`events\[0\]` must be one of "board.created",/);
    await expectInvalid(
      'POST',
      `${API}/webhooks`,
      { url, events: [] },
      '`events` must hold at least 1 item(s).',
    );
    await expectInvalid(
      'POST',
      `${API}/webhooks`,
      { url: `https://hooks.example.com/${'p'.repeat(2048)}`, events: ['*'] },
      '`url` must be at most 2048 characters long.',
    );
  });
});
