import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { describeEachDialect, useTestApp } from '../support/dialects.js';
import type { TestApp } from '../support/test-app.js';
import { filePart, upload } from './asset-fixtures.js';
import { API } from './task-fixtures.js';
import { sendUnframed } from './unframed-request.js';

/** A resource a DELETE route removes: its URL and whether it still exists. */
interface Target {
  url: string;
  exists(): Promise<boolean>;
}

describeEachDialect('a refused DELETE changes nothing (external API)', (dialect) => {
  const t: TestApp = useTestApp(dialect);

  /** Each DELETE route of the external API, with a fresh resource to delete and a way to look it up. */
  async function targets(): Promise<{ key: string; routes: Array<[string, Target]> }> {
    const { key } = await t.createKey('all');
    const exists = (url: string) => async () => (await t.request(key, 'GET', url)).statusCode === 200;
    const post = async (url: string, body: unknown) => {
      const res = await t.request(key, 'POST', url, body);
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data.id as string;
    };
    const board = `${API}/boards/${await post(`${API}/boards`, { name: 'Refusals' })}`;
    const laneId = await post(`${board}/lanes`, { name: 'Todo' });
    const lane = `${board}/lanes/${laneId}`;
    const task = `${board}/tasks/${await post(`${board}/tasks`, { title: 'T', laneId })}`;
    const comments = `${task}/comments`;
    const comment = `${comments}/${await post(comments, { body: 'Ship it', authorName: 'Ada' })}`;
    const todo = `${task}/todos/${await post(`${task}/todos`, { text: 'Plan', iteration: 1 })}`;
    const uploaded = await upload(t, key, `${task}/assets`, [filePart('notes.txt', 'hello')]);
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const asset = `${task}/assets/${uploaded.json().data.id}`;
    const reaction = `${comment}/reactions/heart`;
    expect((await t.request(key, 'PUT', reaction)).statusCode).toBe(201);
    const webhook = `${API}/webhooks/${await post(`${API}/webhooks`, { url: 'https://hooks.example.com/x', events: ['task.created'] })}`;
    // Comments and reactions are read through the task's comment list.
    const listedComment = async () =>
      ((await t.request(key, 'GET', comments)).json().data as Array<{ reactions: unknown[] }>)[0];
    const laneExists = async () =>
      ((await t.request(key, 'GET', board)).json().data.lanes as Array<{ id: string }>).some(
        (l) => l.id === laneId,
      );
    const commentExists = async () => (await listedComment()) !== undefined;
    const reactionExists = async () => ((await listedComment())?.reactions.length ?? 0) > 0;
    const at = (url: string): Target => ({ url, exists: exists(url) });
    // Children first: deleting a board would take the rest with it.
    const routes: Array<[string, Target]> = [
      ['reaction', { url: reaction, exists: reactionExists }],
      ['comment', { url: comment, exists: commentExists }],
      ['todo', at(todo)],
      ['asset', at(asset)],
      ['task', at(task)],
      ['lane', { url: lane, exists: laneExists }],
      ['webhook', at(webhook)],
      ['board', at(board)],
    ];
    return { key, routes };
  }

  function del(key: string, target: Target, contentType: string, payload: string) {
    return t.app.inject({
      method: 'DELETE',
      url: target.url,
      headers: { authorization: `Bearer ${key}`, 'content-type': contentType },
      payload,
    });
  }

  it('a body that is not JSON, not UTF-8 or not a JSON type is refused, and nothing is deleted', async () => {
    const { key, routes } = await targets();
    for (const [name, target] of routes) {
      for (const [contentType, payload, status, code] of [
        ['application/json', '{"x"', 400, 'invalid_body'],
        ['application/json', 'x', 400, 'invalid_body'],
        ['text/plain', '{}', 415, 'unsupported_media_type'],
        ['application/json; charset=utf-16', '{}', 415, 'unsupported_media_type'],
      ] as const) {
        const res = await del(key, target, contentType, payload);
        expect(res.statusCode, `${name} ${contentType} ${payload}: ${res.body}`).toBe(status);
        expect(res.json().error.code).toBe(code);
        expect(await target.exists(), `${name} still exists`).toBe(true);
      }
    }
  });

  it('a well-formed JSON body is ignored: the DELETE answers 204 and deletes', async () => {
    const { key, routes } = await targets();
    for (const [name, target] of routes) {
      const res = await del(key, target, 'application/json', name === 'board' ? '"x"' : '{}');
      expect(res.statusCode, `${name}: ${res.body}`).toBe(204);
      expect(await target.exists(), `${name} is gone`).toBe(false);
    }
  });

  it('a body sent without Content-Length is the next request: the DELETE answers 204 before its 400', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const { key, routes } = await targets();
    for (const [name, target] of routes) {
      const head = [
        `DELETE ${target.url} HTTP/1.1`,
        'Host: 127.0.0.1',
        `Authorization: Bearer ${key}`,
        'Content-Type: application/json',
      ].join('\r\n');
      const answers = await sendUnframed(port, head, '{}');
      // The DELETE ran: its answer says so, and the stray bytes after it get their own 400.
      expect(answers, name).toEqual(['HTTP/1.1 204 No Content', 'HTTP/1.1 400 Bad Request']);
      expect(await target.exists(), `${name} is gone`).toBe(false);
    }
  });
});
