import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../support/built-server.js';
import { DIALECTS } from '../support/database.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { connect, listen, type McpSession, TRANSPORTS } from './mcp-clients.js';

// The stdio transport runs the built CLI; building can take a while on a busy machine.
beforeAll(() => ensureBuilt(), 180_000);

const API = '/api/ext/v1';
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe.each(DIALECTS)('MCP permissions and HTTP rules ($dialect)', ({ dialect, skip }) => {
  let t: TestApp;
  let baseUrl: string;
  let owner: string;
  let reader: string;
  let shortId: string;
  let taskId: string;
  let boardId: string;

  beforeAll(async () => {
    if (skip) return;
    t = await buildTestApp(dialect);
    baseUrl = await listen(t.app);
    owner = (await t.createKey('all')).key;
    boardId = (await t.request(owner, 'POST', `${API}/boards`, { name: 'Read only' })).json().data.id;
    const lane = (await t.request(owner, 'POST', `${API}/boards/${boardId}/lanes`, { name: 'Todo' })).json()
      .data;
    const task = (
      await t.request(owner, 'POST', `${API}/boards/${boardId}/tasks`, {
        title: 'Look only',
        laneId: lane.id,
      })
    ).json().data;
    shortId = task.shortId;
    taskId = task.id;
    reader = (await t.createKey({ [boardId]: 'read' })).key;
  });
  afterAll(async () => {
    await t?.close();
  });

  describe.skipIf(skip)('', () => {
    describe.each(TRANSPORTS)('a read-only key over %s', (transport) => {
      let session: McpSession;
      beforeAll(async () => {
        session = await connect(transport, baseUrl, reader);
      });
      afterAll(async () => {
        await session?.close();
      });

      it('reads the board but every write is refused with forbidden and what to do', async () => {
        const found = await session.call('find_tasks', { query: shortId, board: 'Read only' });
        expect(found.structured).toMatchObject({ total: 1 });
        const writes: Array<[string, Record<string, unknown>]> = [
          ['add_comment', { task: shortId, body: 'hi' }],
          ['add_todos', { task: shortId, todos: [{ text: 'x' }] }],
          ['move_task', { task: shortId, lane: 'Todo' }],
          ['update_task', { task: shortId, title: 'Renamed' }],
          ['archive_task', { task: shortId }],
          ['create_task', { board: 'Read only', lane: 'Todo', title: 'New' }],
        ];
        for (const [tool, args] of writes) {
          const result = await session.call(tool, args);
          expect(result.isError, tool).toBe(true);
          expect(result.structured, tool).toMatchObject({ error: { code: 'forbidden' } });
          expect(result.text, tool).toContain('edit grant');
        }
        const task = (await t.request(owner, 'GET', `${API}/boards/${boardId}/tasks/${taskId}`)).json().data;
        expect(task).toMatchObject({ title: 'Look only', archived: false });
        const comments = (
          await t.request(owner, 'GET', `${API}/boards/${boardId}/tasks/${taskId}/comments`)
        ).json();
        expect(comments.data).toEqual([]);
      });
    });

    it('POST /mcp without a key is 401 missing_auth in the error format, a bad key 401 invalid_key', async () => {
      const none = await t.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: MCP_HEADERS,
        payload: INITIALIZE,
      });
      expect(none.statusCode).toBe(401);
      expect(none.headers['www-authenticate']).toBe('Bearer');
      expect(none.json()).toEqual({ error: { code: 'missing_auth', message: expect.any(String) } });
      const bad = await t.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: { ...MCP_HEADERS, authorization: 'Bearer ak_nope' },
        payload: INITIALIZE,
      });
      expect(bad.statusCode).toBe(401);
      expect(bad.json().error.code).toBe('invalid_key');
    });

    it('POST /mcp answers initialize with JSON and carries the rate-limit headers; GET is 405', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: { ...MCP_HEADERS, authorization: `Bearer ${reader}` },
        payload: INITIALIZE,
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBeDefined();
      expect(res.json()).toMatchObject({ id: 1, result: { serverInfo: { name: 'laneboard' } } });
      const get = await t.app.inject({
        method: 'GET',
        url: '/mcp',
        headers: { authorization: `Bearer ${reader}` },
      });
      expect(get.statusCode).toBe(405);
      expect(get.json().error.code).toBe('method_not_allowed');
    });
  });
});
