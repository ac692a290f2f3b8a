import http from 'node:http';
import net from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { clientErrorHandler } from '../../src/http/error-handler.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/database.js';
import { testRuntime } from '../support/runtime.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';

const API = '/api/ext/v1';
const MiB = 1024 * 1024;

/** Sends raw bytes to a listening server and returns the status code and body of its answer. */
async function rawRequest(port: number, text: string): Promise<{ status: number; body: string }> {
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('close', () => resolve(received));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // The server may reset the connection once it has answered.
      if (received) resolve(received);
      else reject(error);
    });
    socket.write(text);
  });
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), body };
}

function expectError(res: { statusCode: number; json(): unknown }, status: number, code: string) {
  expect(res.statusCode).toBe(status);
  const body = res.json() as { error: { code: string; message: string } };
  expect(Object.keys(body)).toEqual(['error']);
  expect(body.error.code).toBe(code);
  expect(typeof body.error.message).toBe('string');
  expect(body.error.message.length).toBeGreaterThan(0);
  return body.error.message;
}

describe.each(DIALECTS)('error model ($dialect)', ({ dialect, skip }) => {
  let t: TestApp;
  let key: string;
  let boardId: string;
  let laneId: string;

  beforeAll(async () => {
    if (skip) return;
    t = await buildTestApp(dialect);
    key = (await t.createKey('all')).key;
    boardId = (await t.request(key, 'POST', `${API}/boards`, { name: 'Errors' })).json().data.id;
    laneId = (await t.request(key, 'POST', `${API}/boards/${boardId}/lanes`, { name: 'Todo' })).json().data
      .id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const send = (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload: string, contentType?: string) =>
    t.app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${key}`,
        ...(contentType === undefined ? {} : { 'content-type': contentType }),
      },
      payload,
    });

  describe.skipIf(skip)('', () => {
    describe('validation_error names the field', () => {
      const lanePath = () => `${API}/boards/${boardId}/lanes/${laneId}`;
      it.each([
        { what: 'missing', body: {}, field: 'name', hint: 'required' },
        { what: 'wrong type', body: { name: 5 }, field: 'name', hint: 'string' },
        { what: 'null', body: { name: null }, field: 'name', hint: 'string' },
        { what: 'unknown field', body: { name: 'x', colour: 'red' }, field: 'colour', hint: 'not a known' },
        { what: 'too long', body: { name: 'x'.repeat(201) }, field: 'name', hint: '200' },
        { what: 'blank after trim', body: { name: ' \t ' }, field: 'name', hint: 'empty' },
      ])('POST /boards with a $what field', async ({ body, field, hint }) => {
        const res = await t.request(key, 'POST', `${API}/boards`, body);
        const message = expectError(res, 400, 'validation_error');
        expect(message).toContain(`\`${field}\``);
        expect(message).toContain(hint);
      });

      it.each([
        { what: 'a string position', body: { position: '1' }, field: 'position', hint: 'integer' },
        { what: 'a fractional position', body: { position: 1.5 }, field: 'position', hint: 'integer' },
        { what: 'a negative position', body: { position: -1 }, field: 'position', hint: '0' },
        { what: 'a blank name', body: { name: '  ' }, field: 'name', hint: 'empty' },
        { what: 'a long name', body: { name: 'y'.repeat(201) }, field: 'name', hint: '200' },
        { what: 'an unknown field', body: { archived: true }, field: 'archived', hint: 'not a known' },
      ])('PATCH lane with $what', async ({ body, field, hint }) => {
        const message = expectError(await t.request(key, 'PATCH', lanePath(), body), 400, 'validation_error');
        expect(message).toContain(`\`${field}\``);
        expect(message).toContain(hint);
      });

      it.each([
        ['an array', '[]'],
        ['a string', '"x"'],
        ['a number', '42'],
        ['null', 'null'],
      ])('a JSON body that is %s, not an object', async (_what, payload) => {
        const message = expectError(
          await send('POST', `${API}/boards`, payload, 'application/json'),
          400,
          'validation_error',
        );
        expect(message).toBe('The request body must be a JSON object.');
      });

      it('a POST without any body is a validation error, not a crash', async () => {
        expectError(await send('POST', `${API}/boards`, ''), 400, 'validation_error');
      });
    });

    describe('invalid_body, 413 and 415', () => {
      it.each(['{"name":', '{name: "x"}', "{'name':'x'}", '{"name":"x"}}', 'undefined'])(
        'malformed JSON %j is invalid_body',
        async (payload) => {
          expectError(await send('POST', `${API}/boards`, payload, 'application/json'), 400, 'invalid_body');
        },
      );

      it('accepts a charset parameter on the JSON content type', async () => {
        const res = await send(
          'POST',
          `${API}/boards`,
          '{"name":"utf8 ✓"}',
          'application/json; charset=utf-8',
        );
        expect(res.statusCode).toBe(201);
        expect(res.json().data.name).toBe('utf8 ✓');
      });

      it('treats an empty body sent as JSON as no body (clients that always send the header)', async () => {
        const board = (await t.request(key, 'POST', `${API}/boards`, { name: 'doomed' })).json().data;
        const res = await send('DELETE', `${API}/boards/${board.id}`, '', 'application/json');
        expect(res.statusCode).toBe(204);
        expect(res.body).toBe('');
        // A route that needs a body still says which.
        expectError(await send('POST', `${API}/boards`, '', 'application/json'), 400, 'validation_error');
      });

      it('a body over 1 MiB is 413 payload_too_large', async () => {
        const payload = JSON.stringify({ name: 'x'.repeat(MiB) });
        expectError(
          await send('POST', `${API}/boards`, payload, 'application/json'),
          413,
          'payload_too_large',
        );
      });

      it('a body just under 1 MiB is read (and then validated)', async () => {
        const payload = JSON.stringify({ name: 'x'.repeat(MiB - 100) });
        const message = expectError(
          await send('POST', `${API}/boards`, payload, 'application/json'),
          400,
          'validation_error',
        );
        expect(message).toContain('`name`');
      });

      it.each([
        ['text/plain', 'name=x'],
        ['application/x-www-form-urlencoded', 'name=x'],
        ['multipart/form-data; boundary=x', '--x\r\n\r\nname\r\n--x--'],
        ['application/xml', '<name>x</name>'],
      ])('Content-Type %s is 415 unsupported_media_type', async (contentType, payload) => {
        const message = expectError(
          await send('POST', `${API}/boards`, payload, contentType),
          415,
          'unsupported_media_type',
        );
        expect(message).toContain('application/json');
      });
    });

    describe('unknown routes', () => {
      it.each([
        ['GET', `${API}/nope`],
        // Other GET paths belong to the web UI (index.html for client routes, see web-ui.test.ts).
        ['POST', '/nope'],
        ['GET', '/nope.json'],
        ['PUT', `${API}/boards`],
        ['POST', `${API}/boards/brd_x/lanes/lane_x`],
        ['GET', '/api/ext/v2/boards'],
      ] as const)('%s %s is 404 not_found in the error format', async (method, url) => {
        const res = await t.request(key, method, url);
        const message = expectError(res, 404, 'not_found');
        expect(message).toContain(url);
      });

      it('is 404 without a key too: the route does not exist whoever asks', async () => {
        expectError(await t.request(null, 'GET', `${API}/nope`), 404, 'not_found');
      });

      it('an id longer than any id is 404 not_found, not a framework error', async () => {
        const res = await t.request(key, 'GET', `${API}/boards/${'x'.repeat(300)}`);
        expectError(res, 404, 'not_found');
      });

      it('a malformed percent-encoding in the path is 404 not_found in the error format', async () => {
        expectError(await t.request(key, 'GET', `${API}/boards/%E0%A4%A`), 404, 'not_found');
      });
    });

    describe('protocol errors on a real socket', () => {
      let port: number;
      beforeAll(async () => {
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
