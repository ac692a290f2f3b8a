import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/database.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { type FormPart, filePart, multipartBody } from './asset-fixtures.js';

/* The error model on the asset and reaction routes: every refusal is {"error":{"code","message"}}. */

const API = '/api/ext/v1';
const MAX = 64 * 1024;

function expectError(
  res: { statusCode: number; body: string },
  status: number,
  code: string,
  mentions?: string,
) {
  expect(res.statusCode, res.body).toBe(status);
  const body = JSON.parse(res.body) as { error: { code: string; message: string } };
  expect(Object.keys(body)).toEqual(['error']);
  expect(body.error.code).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(0);
  if (mentions !== undefined) expect(body.error.message).toContain(mentions);
}

describe.each(DIALECTS)('asset and reaction errors ($dialect)', ({ dialect, skip }) => {
  let t: TestApp;
  let key: string;
  let boardId: string;
  let assets: string;
  let comments: string;

  beforeAll(async () => {
    if (skip) return;
    t = await buildTestApp(dialect, { assetMaxBytes: MAX });
    key = (await t.createKey('all')).key;
    boardId = (await t.request(key, 'POST', `${API}/boards`, { name: 'Errors' })).json().data.id;
    const lane = (await t.request(key, 'POST', `${API}/boards/${boardId}/lanes`, { name: 'L' })).json().data;
    const task = (
      await t.request(key, 'POST', `${API}/boards/${boardId}/tasks`, { title: 'T', laneId: lane.id })
    ).json().data;
    assets = `${API}/boards/${boardId}/tasks/${task.id}/assets`;
    comments = `${API}/boards/${boardId}/tasks/${task.id}/comments`;
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = (url: string, payload: string | Buffer, contentType?: string) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${key}`, ...(contentType ? { 'content-type': contentType } : {}) },
      payload,
    });
  const form = (parts: FormPart[], url = assets) => {
    const { payload, contentType } = multipartBody(parts);
    return post(url, payload, contentType);
  };

  describe.skipIf(skip)('', () => {
    it.each([
      ['JSON', '{"file":"x"}', 'application/json'],
      ['text', 'hello', 'text/plain'],
      ['url-encoded form', 'file=x', 'application/x-www-form-urlencoded'],
    ])('an upload sent as %s is 415 unsupported_media_type', async (_what, payload, contentType) => {
      expectError(await post(assets, payload, contentType), 415, 'unsupported_media_type');
    });

    it('an upload without a body at all is 415, saying to send multipart/form-data', async () => {
      expectError(await post(assets, ''), 415, 'unsupported_media_type', 'multipart/form-data');
    });

    it.each<[string, FormPart[], string]>([
      ['no part at all', [], '`file`'],
      ['only a source field', [{ name: 'source', value: 'api' }], '`file`'],
      ['two files', [filePart('a.txt', 'a'), filePart('b.txt', 'b')], 'more than one'],
      ['the file under another name', [{ name: 'upload', filename: 'a.txt', content: 'a' }], '`upload`'],
      ['`file` as a plain field', [{ name: 'file', value: 'not a file' }], 'file part'],
      ['an unknown field', [filePart('a.txt', 'a'), { name: 'title', value: 'x' }], '`title`'],
      ['a bad source', [{ name: 'source', value: 'robot' }, filePart('a.txt', 'a')], '`source`'],
      [
        'source twice',
        [{ name: 'source', value: 'api' }, { name: 'source', value: 'agent' }, filePart('a.txt', 'a')],
        '`source`',
      ],
      ['an empty file name', [filePart('', 'a')], '`file`'],
    ])('a form with %s is 400 validation_error', async (_what, parts, mentions) => {
      expectError(await form(parts), 400, 'validation_error', mentions);
    });

    it('an empty multipart body is 400 validation_error (no file)', async () => {
      expectError(
        await post(assets, '', 'multipart/form-data; boundary=xyz'),
        400,
        'validation_error',
        '`file`',
      );
    });

    it('a multipart body without a boundary, or cut off, is 400 invalid_body', async () => {
      expectError(await post(assets, 'abc', 'multipart/form-data'), 400, 'invalid_body');
      const { payload, contentType } = multipartBody([filePart('a.txt', 'abc')]);
      expectError(
        await post(assets, payload.subarray(0, payload.length - 20), contentType),
        400,
        'invalid_body',
      );
    });

    it('a file over the limit is 413 payload_too_large; nothing is stored', async () => {
      expectError(await form([filePart('big.bin', Buffer.alloc(MAX + 1))]), 413, 'payload_too_large');
      expect((await t.request(key, 'GET', assets)).json().data).toEqual([]);
    });

    it('a missing task, asset or board grant answers 404 / 403 before the body is read', async () => {
      const missingTask = assets.replace(/tasks\/[^/]+/, 'tasks/task_missing');
      expectError(await form([filePart('a.txt', 'a')], missingTask), 404, 'not_found', 'Task');
      expectError(await t.request(key, 'GET', missingTask), 404, 'not_found', 'Task');
      expectError(await t.request(key, 'GET', `${assets}/ast_missing`), 404, 'not_found', 'Asset');
      expectError(await t.request(key, 'GET', `${assets}/ast_missing/content`), 404, 'not_found', 'Asset');
      expectError(await t.request(key, 'DELETE', `${assets}/ast_missing`), 404, 'not_found', 'Asset');
      const reader = (await t.createKey({ [boardId]: 'read' })).key;
      const stranger = (await t.createKey({})).key;
      const { payload, contentType } = multipartBody([filePart('a.txt', 'a')]);
      for (const [who, status] of [
        [reader, 403],
        [stranger, 403],
      ] as const) {
        const res = await t.app.inject({
          method: 'POST',
          url: assets,
          headers: { authorization: `Bearer ${who}`, 'content-type': contentType },
          payload,
        });
        expectError(res, status, 'forbidden');
      }
      expect((await t.request(reader, 'GET', assets)).statusCode).toBe(200);
      expectError(await t.request(stranger, 'GET', assets), 403, 'forbidden');
      expectError(await t.app.inject({ method: 'POST', url: assets, payload }), 401, 'missing_auth');
    });

    it('multipart bodies stay 415 on every other route', async () => {
      const { payload, contentType } = multipartBody([{ name: 'name', value: 'Board' }]);
      expectError(await post(`${API}/boards`, payload, contentType), 415, 'unsupported_media_type');
      expectError(await post(comments, payload, contentType), 415, 'unsupported_media_type');
    });

    it('reaction routes: unknown content 400, missing comment 404, malformed JSON 400', async () => {
      const comment = (await t.request(key, 'POST', comments, { body: 'x', authorName: 'A' })).json().data;
      const base = `${comments}/${comment.id}/reactions`;
      expectError(await t.request(key, 'PUT', `${base}/smile`), 400, 'validation_error', '`content`');
      expectError(await t.request(key, 'PUT', `${comments}/cmt_missing/reactions/eyes`), 404, 'not_found');
      expectError(await t.request(key, 'DELETE', `${base}/eyes`), 404, 'not_found', 'Reaction');
      const bad = await t.app.inject({
        method: 'PUT',
        url: `${base}/eyes`,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        payload: '{not json',
      });
      expectError(bad, 400, 'invalid_body');
    });

    describe('on a real socket', () => {
      let port: number;
      beforeAll(async () => {
        await t.app.listen({ host: '127.0.0.1', port: 0 });
        port = (t.app.server.address() as net.AddressInfo).port;
      });

      it('answers 413 as soon as the file crosses the limit, without waiting for the rest', async () => {
        // The request announces 64 MiB but sends only a little more than the limit, then waits: the
        // answer must come anyway (a server that read to the end would never answer).
        const boundary = 'cutoff-boundary';
        const head = Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n\r\n`,
        );
        const answer = await new Promise<string>((resolve, reject) => {
          const socket = net.connect(port, '127.0.0.1');
          let received = '';
          socket.setEncoding('utf8');
          socket.on('data', (chunk: string) => {
            received += chunk;
            if (received.includes('\r\n\r\n') && received.includes('}}')) resolve(received);
          });
          socket.on('error', (error) => (received ? resolve(received) : reject(error)));
          socket.on('close', () => resolve(received));
          socket.write(
            `POST ${assets} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n` +
              `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${64 * 1024 * 1024}\r\n\r\n`,
          );
          socket.write(head);
          socket.write(Buffer.alloc(MAX + 4096));
        });
        expect(answer.split(' ')[1]).toBe('413');
        expect(answer.toLowerCase()).toContain('connection: close');
        expect(JSON.parse(answer.split('\r\n\r\n')[1] ?? '').error.code).toBe('payload_too_large');
      });
    });
  });
});
