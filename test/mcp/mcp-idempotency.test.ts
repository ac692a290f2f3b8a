import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/database.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { connect, listen, type McpSession } from './mcp-clients.js';

const API = '/api/ext/v1';

describe.each(DIALECTS)('MCP write tools with an idempotency key ($dialect)', ({ dialect, skip }) => {
  let t: TestApp;
  let session: McpSession;
  let key: string;
  let boardId: string;

  beforeAll(async () => {
    if (skip) return;
    t = await buildTestApp(dialect);
    const baseUrl = await listen(t.app);
    key = (await t.createKey({})).key;
    boardId = (await t.request(key, 'POST', `${API}/boards`, { name: 'Retries' })).json().data.id;
    await t.request(key, 'POST', `${API}/boards/${boardId}/lanes`, { name: 'Todo' });
    session = await connect('http', baseUrl, key);
  });
  afterAll(async () => {
    await session?.close();
    await t?.close();
  });

  describe.skipIf(skip)('', () => {
    it('a retried create_task, add_comment or add_todos writes once', async () => {
      const args = { board: 'Retries', lane: 'Todo', title: 'Retry-safe', idempotencyKey: 'create-1' };
      const first = await session.call('create_task', args);
      const retry = await session.call('create_task', args);
      expect(retry.structured).toEqual(first.structured);
      const tasks = (await t.request(key, 'GET', `${API}/boards/${boardId}/tasks`)).json().data;
      expect(tasks).toHaveLength(1);
      const shortId = tasks[0].shortId as string;
      const base = `${API}/boards/${boardId}/tasks/${tasks[0].id}`;

      const comment = { task: shortId, body: 'Said once', idempotencyKey: 'comment-1' };
      await session.call('add_comment', comment);
      await session.call('add_comment', comment);
      expect((await t.request(key, 'GET', `${base}/comments`)).json().data).toHaveLength(1);

      const todos = { task: shortId, todos: [{ text: 'a' }, { text: 'b' }], idempotencyKey: 'todos-1' };
      await session.call('add_todos', todos);
      await session.call('add_todos', todos);
      expect((await t.request(key, 'GET', `${base}/todos`)).json().data).toHaveLength(2);

      const reused = await session.call('add_comment', { ...comment, body: 'Something else' });
      expect(reused.isError).toBe(true);
      expect(reused.structured).toMatchObject({ error: { code: 'idempotency_key_reused' } });
      expect(reused.text).toContain('new idempotency key');
    });
  });
});
