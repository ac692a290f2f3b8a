import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../support/dialects.js';
import type { McpSession } from './mcp-clients.js';
import { API, boardWithLanes, useMcpServer } from './mcp-support.js';

describeEachDialect('MCP write tools with an idempotency key', (dialect) => {
  const mcp = useMcpServer(dialect);
  let session: McpSession;
  let key: string;
  let boardId: string;

  beforeAll(async () => {
    key = (await mcp.t.createKey({})).key;
    ({ boardId } = await boardWithLanes(mcp.t, key, 'Retries', ['Todo']));
    session = await mcp.connect('http', key);
  });

  it('a retried create_task, add_comment or add_todos writes once', async () => {
    const args = { board: 'Retries', lane: 'Todo', title: 'Retry-safe', idempotencyKey: 'create-1' };
    const first = await session.call('create_task', args);
    const retry = await session.call('create_task', args);
    expect(retry.structured).toEqual(first.structured);
    const tasks = (await mcp.t.request(key, 'GET', `${API}/boards/${boardId}/tasks`)).json().data;
    expect(tasks).toHaveLength(1);
    const shortId = tasks[0].shortId as string;
    const base = `${API}/boards/${boardId}/tasks/${tasks[0].id}`;

    const comment = { task: shortId, body: 'Said once', idempotencyKey: 'comment-1' };
    await session.call('add_comment', comment);
    await session.call('add_comment', comment);
    expect((await mcp.t.request(key, 'GET', `${base}/comments`)).json().data).toHaveLength(1);

    const todos = { task: shortId, todos: [{ text: 'a' }, { text: 'b' }], idempotencyKey: 'todos-1' };
    await session.call('add_todos', todos);
    await session.call('add_todos', todos);
    expect((await mcp.t.request(key, 'GET', `${base}/todos`)).json().data).toHaveLength(2);

    const reused = await session.call('add_comment', { ...comment, body: 'Something else' });
    expect(reused.isError).toBe(true);
    expect(reused.structured).toMatchObject({ error: { code: 'idempotency_key_reused' } });
    expect(reused.text).toContain('new idempotency key');
  });
});
