import http from 'node:http';
import type net from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { clientErrorHandler } from '../../src/http/error-handler.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/database.js';
import { describeEachDialect, useTestApp } from '../support/dialects.js';
import { testRuntime } from '../support/runtime.js';
import { expectError, rawRequest } from './error-fixtures.js';

const API = '/api/ext/v1';

describeEachDialect('protocol errors on a real socket', (dialect) => {
  const t = useTestApp(dialect);
  let key: string;
  let port: number;
  beforeAll(async () => {
    key = (await t.createKey('all')).key;
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as net.AddressInfo).port;
  });

  it('oversized headers are 431 headers_too_large in the error format', async () => {
    const res = await rawRequest(
      port,
      `GET ${API}/boards HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nX-Padding: ${'a'.repeat(64 * 1024)}\r\n\r\n`,
    );
    expect(res.status).toBe(431);
    expect(JSON.parse(res.body).error.code).toBe('headers_too_large');
  });

  it('a request line the parser cannot read is 400 in the error format', async () => {
    const res = await rawRequest(port, 'BREW /coffee HTCPCP/1.0\r\n\r\n');
    expect(res.status).toBe(400);
    expect(Object.keys(JSON.parse(res.body).error).sort()).toEqual(['code', 'message']);
  });

  it('an ordinary request on the same server still works', async () => {
    const res = await rawRequest(
      port,
      `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
    );
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ status: 'ok' });
  });
});

describe.each(DIALECTS)('unexpected errors ($dialect)', ({ dialect, skip }) => {
  let db: TestDatabase;
  let app: FastifyInstance;
  const logLines: string[] = [];

  beforeAll(async () => {
    if (skip) return;
    db = await createTestDatabase(dialect);
    const { services } = await testRuntime(db.database);
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString('utf8'));
        done();
      },
    });
    app = await buildApp({
      database: db.database,
      services,
      rateLimit: { max: 1000, windowMs: 60_000 },
      logger: { level: 'error', stream },
    });
    // Test-only routes that fail the way real defects do: a thrown error and a failing SQL statement.
    app.get('/test/throws', async () => {
      throw new Error('secret internals at /srv/app/file.ts:12');
    });
    app.get('/test/sql', async () => {
      await sql`select * from no_such_table_for_tests where password = 'hunter2'`.execute(db.database.kysely);
      return { ok: true };
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  describe.skipIf(skip)('', () => {
    it.each(['/test/throws', '/test/sql'])(
      '%s is 500 internal_error without stack, SQL or message',
      async (url) => {
        logLines.length = 0;
        const res = await app.inject({ method: 'GET', url });
        const message = expectError(res, 500, 'internal_error');
        for (const leak of ['secret internals', 'file.ts', 'no_such_table', 'hunter2', 'select', '    at ']) {
          expect(res.body.toLowerCase()).not.toContain(leak);
        }
        // The client gets the request id to quote; the log has the error under that id.
        const requestId = /request id ([^)]+)\)/.exec(message)?.[1];
        expect(requestId).toBeTruthy();
        const logged = logLines.map((line) => JSON.parse(line)).find((entry) => entry.reqId === requestId);
        expect(logged?.level).toBe(50);
        expect(logged?.err?.message).toBeTruthy();
      },
    );
  });
});

describe('request time-out answer', () => {
  it('a request whose headers do not arrive in time gets 408 request_timeout in the error format', async () => {
    const server = http.createServer({
      headersTimeout: 100,
      requestTimeout: 150,
      connectionsCheckingInterval: 20,
    });
    server.on('clientError', clientErrorHandler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as net.AddressInfo;
      const res = await rawRequest(port, 'GET /api/ext/v1/boards HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      expect(res.status).toBe(408);
      expect(JSON.parse(res.body).error.code).toBe('request_timeout');
    } finally {
      server.close();
    }
  });
});
