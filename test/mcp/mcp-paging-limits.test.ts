import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../support/built-server.js';
import { DIALECTS } from '../support/database.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { connect, listen, type McpSession } from './mcp-clients.js';

const API = '/api/ext/v1';
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

function toolCall(id: number, name: string, args: Record<string, unknown>) {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } };
}

describe.each(DIALECTS)('MCP lists ($dialect)', ({ dialect, skip }) => {
  describe.skipIf(skip)('', () => {
    let t: TestApp;
    let session: McpSession;
    let key: string;

    beforeAll(async () => {
      t = await buildTestApp(dialect);
      const baseUrl = await listen(t.app);
      key = (await t.createKey({})).key;
      const boardId = (await t.request(key, 'POST', `${API}/boards`, { name: 'Many' })).json().data.id;
      const lane = (await t.request(key, 'POST', `${API}/boards/${boardId}/lanes`, { name: 'Todo' })).json()
        .data;
      for (let i = 1; i <= 25; i++) {
        await t.request(key, 'POST', `${API}/boards/${boardId}/tasks`, {
          title: `Task ${i}`,
          laneId: lane.id,
        });
      }
      session = await connect('http', baseUrl, key);
    });
    afterAll(async () => {
      await session?.close();
      await t?.close();
    });

    it('pages find_tasks with a stated total and a more cursor, never cutting silently', async () => {
      const titles: string[] = [];
      let cursor: string | undefined;
      const pages: Array<{ shown: number; total: number }> = [];
      do {
        const page = await session.call('find_tasks', {
          board: 'many',
          limit: 10,
          ...(cursor ? { cursor } : {}),
        });
        const tasks = page.structured.tasks as Array<{ title: string }>;
        titles.push(...tasks.map((x) => x.title));
        pages.push({ shown: tasks.length, total: page.structured.total as number });
        cursor = (page.structured.more as string | null) ?? undefined;
        if (cursor) expect(page.text).toContain(cursor);
      } while (cursor);
      expect(pages).toEqual([
        { shown: 10, total: 25 },
        { shown: 10, total: 25 },
        { shown: 5, total: 25 },
      ]);
      expect(titles).toEqual(Array.from({ length: 25 }, (_, i) => `Task ${i + 1}`));
      const bad = await session.call('find_tasks', { cursor: 'not-a-cursor' });
      expect(bad.structured).toMatchObject({ error: { code: 'validation_error' } });
    });

    it('refuses arguments the schema does not allow, naming the field', async () => {
      const unknown = await session.call('find_tasks', { colour: 'red' });
      expect(unknown.isError).toBe(true);
      expect(unknown.text).toContain('`colour`');
    });
  });
});

describe.each(DIALECTS)('MCP rate limit ($dialect)', ({ dialect, skip }) => {
  describe.skipIf(skip)('', () => {
    let t: TestApp;
    let key: string;
    beforeAll(async () => {
      t = await buildTestApp(dialect, { rateLimit: { max: 3, windowMs: 60_000 } });
      key = (await t.createKey({})).key;
    });
    afterAll(async () => {
      await t?.close();
    });

    it('counts /mcp requests and the API calls of its tools against the key', async () => {
      const headers = { ...MCP_HEADERS, authorization: `Bearer ${key}` };
      // 1: /mcp; 2: GET /boards; 3: GET /boards/:id (the scratch board of the key).
      const first = await t.app.inject({
        method: 'POST',
        url: '/mcp',
        headers,
        payload: toolCall(1, 'find_boards', {}),
      });
      expect(first.statusCode).toBe(200);
      expect(first.json().result.isError).toBeFalsy();
      const second = await t.app.inject({
        method: 'POST',
        url: '/mcp',
        headers,
        payload: toolCall(2, 'find_boards', {}),
      });
      expect(second.statusCode).toBe(429);
      expect(Number(second.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(second.json()).toEqual({
        error: { code: 'rate_limited', message: 'Rate limit exceeded. Try again later.' },
      });
    });

    it('a tool whose API call is limited answers rate_limited with what to do', async () => {
      const { key: other } = await t.createKey({});
      const headers = { ...MCP_HEADERS, authorization: `Bearer ${other}` };
      await t.request(other, 'GET', `${API}/boards`);
      // 2: /mcp; 3: GET /boards; 4: GET /boards/:id is over the limit.
      const res = await t.app.inject({
        method: 'POST',
        url: '/mcp',
        headers,
        payload: toolCall(1, 'find_boards', {}),
      });
      expect(res.statusCode).toBe(200);
      const result = res.json().result;
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ error: { code: 'rate_limited' } });
      expect(result.content[0].text).toContain('Wait');
    });
  });
});

describe('laneboard mcp configuration', () => {
  // Building (when dist/ is older than src/) can take a while on a busy machine.
  beforeAll(() => ensureBuilt(), 180_000);

  it('exits 1 with a one-line message when LANEBOARD_URL or LANEBOARD_API_KEY is missing', () => {
    const run = spawnSync(process.execPath, [path.join(ROOT, 'bin/laneboard.js'), 'mcp'], {
      env: { PATH: process.env.PATH ?? '' },
      input: '',
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringContaining('LANEBOARD_API_KEY')]);
  });
});
