import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../../src/domain/actor.js';
import { API } from '../support/api.js';
import { describeEachDialect, useTestApp } from '../support/dialects.js';

const OPERATOR: Actor = { kind: 'system', origin: 'cli', name: 'CLI' };

type Access = 'all-boards' | 'edit' | 'read' | 'none';
type Needs = 'any key' | 'read' | 'edit';

interface Endpoint {
  name: string;
  method: NonNullable<InjectOptions['method']>;
  url: (boardId: string, laneId: string) => string;
  body?: unknown;
  status: number;
  needs: Needs;
}

const ENDPOINTS: Endpoint[] = [
  { name: 'list boards', method: 'GET', url: () => `${API}/boards`, status: 200, needs: 'any key' },
  {
    name: 'create board',
    method: 'POST',
    url: () => `${API}/boards`,
    body: { name: 'New' },
    status: 201,
    needs: 'any key',
  },
  { name: 'board detail', method: 'GET', url: (b) => `${API}/boards/${b}`, status: 200, needs: 'read' },
  { name: 'delete board', method: 'DELETE', url: (b) => `${API}/boards/${b}`, status: 204, needs: 'edit' },
  { name: 'list lanes', method: 'GET', url: (b) => `${API}/boards/${b}/lanes`, status: 200, needs: 'read' },
  {
    name: 'create lane',
    method: 'POST',
    url: (b) => `${API}/boards/${b}/lanes`,
    body: { name: 'Review' },
    status: 201,
    needs: 'edit',
  },
  {
    name: 'update lane',
    method: 'PATCH',
    url: (b, l) => `${API}/boards/${b}/lanes/${l}`,
    body: { name: 'Renamed', position: 1 },
    status: 200,
    needs: 'edit',
  },
  {
    name: 'delete lane',
    method: 'DELETE',
    url: (b, l) => `${API}/boards/${b}/lanes/${l}`,
    status: 204,
    needs: 'edit',
  },
];

const ACCESSES: Access[] = ['all-boards', 'edit', 'read', 'none'];

function allowed(access: Access, needs: Needs): boolean {
  if (needs === 'any key' || access === 'all-boards' || access === 'edit') return true;
  return access === 'read' && needs === 'read';
}

const MATRIX = ENDPOINTS.flatMap((endpoint) =>
  ACCESSES.map((access) => ({
    ...endpoint,
    access,
    expected: allowed(access, endpoint.needs) ? endpoint.status : 403,
  })),
);

describeEachDialect('authentication and permissions', (dialect) => {
  const t = useTestApp(dialect);

  /** A board with two lanes, made by the operator, and a key holding `access` on it. */
  async function fixture(access: Access) {
    const board = await t.services.boards.createBoard(OPERATOR, { name: 'Matrix' });
    const lane = await t.services.lanes.createLane(OPERATOR, board.id, { name: 'Todo' });
    await t.services.lanes.createLane(OPERATOR, board.id, { name: 'Done' });
    const grants =
      access === 'all-boards' ? 'all' : access === 'none' ? {} : { [board.id]: access as 'read' | 'edit' };
    const { key } = await t.createKey(grants);
    return { boardId: board.id, laneId: lane.id, key };
  }

  const snapshot = (boardId: string) => t.services.boards.getBoard(OPERATOR, boardId);

  describe('permission matrix', () => {
    it.each(MATRIX)('$name with a $access key → $expected', async (row) => {
      const { boardId, laneId, key } = await fixture(row.access);
      const before = await snapshot(boardId);
      const res = await t.request(key, row.method, row.url(boardId, laneId), row.body);
      expect(res.statusCode).toBe(row.expected);
      if (row.expected === 403) {
        expect(res.json().error.code).toBe('forbidden');
        // A refused request changes nothing.
        expect(await snapshot(boardId)).toEqual(before);
      }
      if (row.name === 'list boards') {
        const listed = res.json().data.find((b: { id: string }) => b.id === boardId);
        const expected = { 'all-boards': 'edit', edit: 'edit', read: 'read', none: undefined }[row.access];
        expect(listed?.permission).toBe(expected);
      }
    });

    it.each(['list lanes', 'board detail', 'create lane', 'delete board'])(
      '%s on a board that does not exist: 403 without a grant, 404 with all-boards access',
      async (name) => {
        const endpoint = ENDPOINTS.find((e) => e.name === name) as Endpoint;
        const url = endpoint.url('brd_doesnotexist', 'lane_doesnotexist');
        const none = await t.createKey({});
        const all = await t.createKey('all');
        const denied = await t.request(none.key, endpoint.method, url, endpoint.body);
        expect(denied.statusCode).toBe(403);
        expect(denied.json().error.code).toBe('forbidden');
        const missing = await t.request(all.key, endpoint.method, url, endpoint.body);
        expect(missing.statusCode).toBe(404);
        expect(missing.json().error.code).toBe('not_found');
      },
    );

    it('a lane of another board, or a missing lane, is 404 not_found', async () => {
      const { boardId, key } = await fixture('all-boards');
      const other = await fixture('all-boards');
      for (const laneId of [other.laneId, 'lane_missing']) {
        for (const [method, body] of [
          ['PATCH', { name: 'Stolen' }],
          ['DELETE', undefined],
        ] as const) {
          const res = await t.request(key, method, `${API}/boards/${boardId}/lanes/${laneId}`, body);
          expect(res.statusCode).toBe(404);
          expect(res.json().error.code).toBe('not_found');
        }
      }
      expect((await snapshot(other.boardId)).lanes.map((l) => l.name)).toEqual(['Todo', 'Done']);
    });

    it('a read key is told that its access is read-only', async () => {
      const { boardId, key } = await fixture('read');
      const res = await t.request(key, 'POST', `${API}/boards/${boardId}/lanes`, { name: 'x' });
      expect(res.statusCode).toBe(403);
      expect(res.json().error.message).toMatch(/read-only/);
    });

    it('a grant given to a key applies from its next request', async () => {
      const { boardId } = await fixture('edit');
      const { id, key } = await t.createKey({});
      expect((await t.request(key, 'GET', `${API}/boards/${boardId}`)).statusCode).toBe(403);
      await t.services.apiKeys.grantBoard(OPERATOR, id, { boardId, permission: 'read' });
      expect((await t.request(key, 'GET', `${API}/boards/${boardId}`)).statusCode).toBe(200);
      expect((await t.request(key, 'DELETE', `${API}/boards/${boardId}`)).statusCode).toBe(403);
      await t.services.apiKeys.grantBoard(OPERATOR, id, { boardId, permission: 'edit' });
      expect((await t.request(key, 'DELETE', `${API}/boards/${boardId}`)).statusCode).toBe(204);
    });
  });

  describe('authentication', () => {
    const header = (authorization: string | undefined) =>
      t.app.inject({
        method: 'GET',
        url: `${API}/boards`,
        headers: authorization === undefined ? {} : { authorization },
      });

    it('no Authorization header is 401 missing_auth with WWW-Authenticate: Bearer', async () => {
      for (const res of [await header(undefined), await header('')]) {
        expect(res.statusCode).toBe(401);
        expect(res.headers['www-authenticate']).toBe('Bearer');
        expect(res.json().error.code).toBe('missing_auth');
      }
    });

    it('authentication comes before validation, body parsing, permission and existence', async () => {
      const cases: InjectOptions[] = [
        {
          method: 'POST',
          url: `${API}/boards`,
          payload: '{"name":',
          headers: { 'content-type': 'application/json' },
        },
        { method: 'POST', url: `${API}/boards`, payload: 'x', headers: { 'content-type': 'text/plain' } },
        { method: 'POST', url: `${API}/boards`, payload: {} },
        { method: 'DELETE', url: `${API}/boards/brd_doesnotexist` },
        { method: 'PATCH', url: `${API}/boards/brd_x/lanes/lane_y`, payload: { position: -1 } },
      ];
      for (const options of cases) {
        const res = await t.app.inject(options);
        expect(res.statusCode).toBe(401);
        expect(res.json().error.code).toBe('missing_auth');
      }
    });

    it.each([
      ['an unknown key', `Bearer ak_${'x'.repeat(43)}`],
      ['another scheme', 'Basic x'],
      ['Basic credentials', `Basic ${Buffer.from('user:pass').toString('base64')}`],
      ['a scheme without a key', 'Bearer'],
      ['a blank key', 'Bearer    '],
      ['two tokens', 'Bearer ak_one ak_two'],
      ['a key without the ak_ prefix', `Bearer ${'x'.repeat(46)}`],
      ['a bare key without a scheme', `ak_${'x'.repeat(43)}`],
      ['a token scheme', `Token ak_${'x'.repeat(43)}`],
    ])('%s is 401 invalid_key with WWW-Authenticate: Bearer', async (_what, value) => {
      const res = await header(value);
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.json().error.code).toBe('invalid_key');
    });

    it('the Bearer scheme is case-insensitive', async () => {
      const { key } = await t.createKey('all');
      for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
        const res = await header(`${scheme} ${key}`);
        expect(res.statusCode).toBe(200);
      }
    });

    it('a key is case-sensitive: the same key in other letters is invalid', async () => {
      const { key } = await t.createKey('all');
      const swapped = `ak_${[...key.slice(3)].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('')}`;
      expect((await header(`Bearer ${swapped}`)).json().error.code).toBe('invalid_key');
    });

    it('a revoked key works no more on the very next request', async () => {
      const { id, key } = await t.createKey('all');
      expect((await header(`Bearer ${key}`)).statusCode).toBe(200);
      await t.services.apiKeys.revokeApiKey(OPERATOR, id);
      const res = await header(`Bearer ${key}`);
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('invalid_key');
      expect(res.headers['www-authenticate']).toBe('Bearer');
    });

    it('the OpenAPI document and the health check need no key', async () => {
      expect((await t.app.inject({ method: 'GET', url: `${API}/openapi.json` })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    });
  });
});
