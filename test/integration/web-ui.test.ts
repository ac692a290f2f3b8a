import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installErrorHandling } from '../../src/http/error-handler.js';
import { CONTENT_SECURITY_POLICY, webUi } from '../../src/http/web-ui.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';

const INDEX = '<!doctype html><html><body><div id="root"></div></body></html>';

async function appServing(root: string): Promise<FastifyInstance> {
  const app = Fastify();
  installErrorHandling(app);
  app.get('/api/ext/v1/boards', async () => ({ data: [] }));
  await app.register(webUi, { root });
  await app.ready();
  return app;
}

describe('web UI serving', () => {
  let root: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-web-'));
    fs.mkdirSync(path.join(root, 'assets'));
    fs.writeFileSync(path.join(root, 'index.html'), INDEX);
    fs.writeFileSync(path.join(root, 'assets', 'index-abc123.js'), 'console.log(1);');
    fs.writeFileSync(path.join(root, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    app = await appServing(root);
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('serves index.html at / with no-cache and a strict Content-Security-Policy', async () => {
    const res = await app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toBe(INDEX);
    expect(res.headers['cache-control']).toBe('no-cache');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toBe(CONTENT_SECURITY_POLICY);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves index.html for client routes, with or without a query', async () => {
    for (const url of ['/settings/keys', '/invite/abc?x=1', '/login']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toBe(INDEX);
    }
  });

  it('serves hashed assets with a year-long immutable cache', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('console.log(1);');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('serves other files with a short cache', async () => {
    const res = await app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('answers 404 in the error format for a missing asset instead of the page', async () => {
    for (const url of ['/assets/index-gone.js', '/robots.txt', '/..%2f..%2fetc%2fpasswd.txt']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
  });

  it('never serves the page for server paths', async () => {
    for (const url of ['/api/ext/v1/nope', '/api/ui/nope', '/api', '/mcp', '/healthz/x']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({
        error: { code: 'not_found', message: expect.stringContaining('No route') },
      });
    }
    const api = await app.inject({ method: 'GET', url: '/api/ext/v1/boards' });
    expect(api.json()).toEqual({ data: [] });
  });

  it('says how to build the UI when dist/web is missing', async () => {
    const missing = await appServing(path.join(root, 'not-there'));
    const res = await missing.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(503);
    expect(res.json().error.code).toBe('unavailable');
    expect(res.json().error.message).toContain('npm run build');
    const api = await missing.inject({ method: 'GET', url: '/api/ext/v1/nope' });
    expect(api.statusCode).toBe(404);
    await missing.close();
  });
});

describe('web UI inside the full app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('sqlite');
  });
  afterAll(async () => t.close());

  it('keeps unknown API routes a 404 for anyone, with or without a key', async () => {
    const res = await t.request(null, 'GET', '/api/ext/v1/no-such-thing');
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('not_found');
  });

  it('keeps API routes authenticated', async () => {
    const res = await t.request(null, 'GET', '/api/ext/v1/boards');
    expect(res.statusCode).toBe(401);
  });

  it('does not answer POST on a client route', async () => {
    const res = await t.request(null, 'POST', '/settings/keys', {});
    expect(res.statusCode).toBe(404);
  });
});
