import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { useTestApp } from '../support/dialects.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request ids', () => {
  const t = useTestApp('sqlite');

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });

  it('answers each request with a random id of its own', async () => {
    const [a, b] = await Promise.all([get('/healthz'), get('/healthz')]);
    expect(a.headers['x-request-id']).toMatch(UUID);
    expect(b.headers['x-request-id']).toMatch(UUID);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  it("keeps a caller's short safe X-Request-Id, also on errors", async () => {
    expect((await get('/healthz', { 'x-request-id': 'lb-7f3a.01:retry_2' })).headers['x-request-id']).toBe(
      'lb-7f3a.01:retry_2',
    );
    const missing = await get('/api/ext/v1/boards', { 'x-request-id': 'proxy-42' });
    expect(missing.statusCode).toBe(401);
    expect(missing.headers['x-request-id']).toBe('proxy-42');
    const unknown = await get('/api/ext/v1/nowhere', { 'x-request-id': 'proxy-43' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['x-request-id']).toBe('proxy-43');
  });

  it('replaces an id that is too long or could forge a log line', async () => {
    for (const given of ['x'.repeat(65), 'a b', 'id"}{"level":60', '']) {
      const res = await get('/healthz', { 'x-request-id': given });
      expect(res.headers['x-request-id'], given).toMatch(UUID);
    }
  });
});

describe('request log lines', () => {
  const t = useTestApp('sqlite');

  /** An app on the test database logging at `level` into the returned lines. */
  async function loggingApp(level: string, extra?: (app: FastifyInstance) => void) {
    const lines: Array<Record<string, unknown>> = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString('utf8')));
        done();
      },
    });
    const app = await buildApp({
      database: t.db.database,
      services: t.services,
      rateLimit: { max: 1000, windowMs: 60_000 },
      loggerInstance: pino({ level }, stream),
    });
    extra?.(app);
    await app.ready();
    return { app, lines };
  }

  it('at info, logs arrival and completion of each request under its id (docs/operations.md)', async () => {
    const { app, lines } = await loggingApp('info');
    const res = await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'log-1' } });
    await app.close();
    const mine = lines.filter((line) => line.reqId === 'log-1');
    expect(mine.map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
    expect(mine[1]).toMatchObject({ res: { statusCode: res.statusCode } });
  });

  it('at warn, logs nothing for a request that succeeds, and a warning under its id', async () => {
    const { app, lines } = await loggingApp('warn', (app) =>
      app.get('/test/warns', async (request) => {
        request.log.info('not written');
        request.log.warn('written');
        return { ok: true };
      }),
    );
    await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'log-2' } });
    await app.inject({ method: 'GET', url: '/test/warns', headers: { 'x-request-id': 'log-3' } });
    await app.close();
    expect(lines.filter((line) => line.reqId === 'log-2')).toEqual([]);
    expect(lines.filter((line) => line.reqId === 'log-3').map((line) => line.msg)).toEqual(['written']);
  });
});
