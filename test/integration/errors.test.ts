import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect, useTestApp } from '../support/dialects.js';
import { expectError } from './error-fixtures.js';
import { createBoard } from './task-fixtures.js';

const API = '/api/ext/v1';
const MiB = 1024 * 1024;

describeEachDialect('error model', (dialect) => {
  const t = useTestApp(dialect);
  let key: string;
  let boardId: string;
  let laneId: string;

  beforeAll(async () => {
    const board = await createBoard(t, ['Todo'], (await t.createKey('all')).key);
    ({ key, boardId } = board);
    laneId = board.laneIds[0] as string;
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
      const res = await send('POST', `${API}/boards`, '{"name":"utf8 ✓"}', 'application/json; charset=utf-8');
      expect(res.statusCode).toBe(201);
      expect(res.json().data.name).toBe('utf8 ✓');
    });

    it.each(['utf-16', 'UTF-16LE', '"iso-8859-1"', 'latin1'])(
      'refuses a JSON body declared as charset=%s (415), creating nothing',
      async (charset) => {
        const before = (await t.request(key, 'GET', `${API}/boards`)).json().data.length;
        const res = await send(
          'POST',
          `${API}/boards`,
          '{"name":"Not UTF-8"}',
          `application/json; charset=${charset}`,
        );
        expectError(res, 415, 'unsupported_media_type');
        expect((await t.request(key, 'GET', `${API}/boards`)).json().data).toHaveLength(before);
      },
    );

    it.each(['UTF-8', '"utf-8"', 'utf8'])('accepts charset=%s as UTF-8', async (charset) => {
      const res = await send('POST', `${API}/boards`, '{"name":"é"}', `application/json; charset=${charset}`);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data.name).toBe('é');
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
      expectError(await send('POST', `${API}/boards`, payload, 'application/json'), 413, 'payload_too_large');
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
});
