import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../support/test-app.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request ids', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('sqlite');
  });
  afterAll(async () => {
    await t?.close();
  });

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
