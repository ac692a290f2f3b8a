import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { describeEachDialect } from '../support/dialects.js';
import { type Browser, useUiTestApp } from '../ui/ui-support.js';
import { sendUnframed } from './unframed-request.js';

/** A resource a DELETE route of the web UI's API removes: its URL and whether it still exists. */
interface Target {
  url: string;
  /** The status the DELETE answers when it succeeds. */
  success: number;
  exists(): Promise<boolean>;
}

describeEachDialect('a refused DELETE changes nothing (UI API)', (dialect) => {
  const t = useUiTestApp(dialect);

  /** Each DELETE route of the UI API, with a fresh resource and an owner's browser that can delete it. */
  async function targets(): Promise<{ browser: Browser; routes: Array<[string, Target]> }> {
    const { browser } = await t.person('owner');
    const created = async (url: string, body: unknown) => {
      const res = await browser.request('POST', url, body);
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data;
    };
    const key = await created('/api/ui/keys', { name: 'laptop', allBoards: true, grants: [] });
    const secondKey = await created('/api/ui/keys', { name: 'hooks', allBoards: true, grants: [] });
    const webhook = await created('/api/ui/webhooks', {
      url: 'http://127.0.0.1:9/hook',
      events: ['task.created'],
      apiKeyId: secondKey.id,
    });
    const invite = await created('/api/ui/invites', { role: 'member' });
    const ext = (method: 'GET' | 'POST', url: string, body?: unknown) =>
      t.app.inject({
        method,
        url: `/api/ext/v1${url}`,
        headers: { authorization: `Bearer ${key.key}` },
        ...(body === undefined ? {} : { payload: body as object }),
      });
    const boardId = (await ext('POST', '/boards', { name: 'UI refusals' })).json().data.id;
    const laneId = (await ext('POST', `/boards/${boardId}/lanes`, { name: 'Todo' })).json().data.id;
    const taskId = (await ext('POST', `/boards/${boardId}/tasks`, { title: 'T', laneId })).json().data.id;
    const comments = `/api/ui/boards/${boardId}/tasks/${taskId}/comments`;
    const comment = await created(comments, { body: 'Ship it' });
    const listed = async (url: string, id: string) =>
      ((await browser.request('GET', url)).json().data as Array<{ id: string }>).some(
        (item) => item.id === id,
      );
    const routes: Array<[string, Target]> = [
      [
        'comment',
        { url: `${comments}/${comment.id}`, success: 204, exists: () => listed(comments, comment.id) },
      ],
      [
        'invite',
        {
          url: `/api/ui/invites/${invite.id}`,
          success: 204,
          exists: () => listed('/api/ui/invites', invite.id),
        },
      ],
      [
        'webhook',
        {
          url: `/api/ui/webhooks/${webhook.id}`,
          success: 204,
          exists: async () =>
            (await browser.request('GET', `/api/ui/webhooks/${webhook.id}`)).statusCode === 200,
        },
      ],
      [
        'key',
        {
          url: `/api/ui/keys/${key.id}`,
          success: 200,
          exists: async () => (await ext('GET', '/boards')).statusCode === 200,
        },
      ],
      [
        'session',
        {
          url: '/api/ui/session',
          success: 204,
          exists: async () => (await browser.request('GET', '/api/ui/invites')).statusCode === 200,
        },
      ],
    ];
    return { browser, routes };
  }

  it('a body that is not JSON, not UTF-8 or not a JSON type is refused, and nothing is deleted', async () => {
    const { browser, routes } = await targets();
    for (const [name, target] of routes) {
      expect(await target.exists(), `${name} exists`).toBe(true);
      for (const [contentType, payload, status, code] of [
        ['application/json', '{"x"', 400, 'invalid_body'],
        ['text/plain', '{}', 415, 'unsupported_media_type'],
        ['application/json; charset="UTF-16"', '{}', 415, 'unsupported_media_type'],
      ] as const) {
        const res = await browser.request('DELETE', target.url, payload, { 'content-type': contentType });
        expect(res.statusCode, `${name} ${contentType} ${payload}: ${res.body}`).toBe(status);
        expect(res.json().error.code).toBe(code);
        expect(await target.exists(), `${name} still exists`).toBe(true);
      }
    }
  });

  it('a well-formed JSON body is ignored: the DELETE succeeds', async () => {
    const { browser, routes } = await targets();
    for (const [name, target] of routes) {
      const res = await browser.request('DELETE', target.url, '{}', { 'content-type': 'application/json' });
      expect(res.statusCode, `${name}: ${res.body}`).toBe(target.success);
      expect(await target.exists(), `${name} is gone`).toBe(false);
    }
  });

  it('a body sent without Content-Length is the next request: the DELETE answers first, then its 400', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const { browser, routes } = await targets();
    for (const [name, target] of routes) {
      const head = [
        `DELETE ${target.url} HTTP/1.1`,
        'Host: 127.0.0.1',
        `Cookie: lb_session=${browser.cookie}`,
        'Sec-Fetch-Site: same-origin',
        'Content-Type: application/json',
      ].join('\r\n');
      const answers = await sendUnframed(port, head, '"x"');
      expect(answers[0], name).toMatch(new RegExp(`^HTTP/1.1 ${target.success} `));
      expect(answers.slice(1), name).toEqual(['HTTP/1.1 400 Bad Request']);
      expect(await target.exists(), `${name} is gone`).toBe(false);
    }
  });
});
