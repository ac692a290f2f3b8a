import { verify as verifyGithubStyle } from '@octokit/webhooks-methods';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/database.js';
import { buildWebhookApp, recentDeliveries, settled, type WebhookApp } from '../support/webhook-app.js';
import { type ReceivedRequest, WebhookReceiver } from '../support/webhook-receiver.js';

const API = '/api/ext/v1';

function header(request: ReceivedRequest, name: string): string {
  const value = request.headers[name];
  if (typeof value !== 'string') throw new Error(`missing header ${name}`);
  return value;
}

/** Both signatures checked by independent implementations. */
async function signedBy(request: ReceivedRequest, secret: string): Promise<boolean> {
  const github = await verifyGithubStyle(secret, request.body, header(request, 'x-service-signature-256'));
  let standard = true;
  try {
    new StandardWebhook(secret).verify(request.body, {
      'webhook-id': header(request, 'webhook-id'),
      'webhook-timestamp': header(request, 'webhook-timestamp'),
      'webhook-signature': header(request, 'webhook-signature'),
    });
  } catch {
    standard = false;
  }
  return github && standard;
}

describe.each(DIALECTS)('webhook delivery ($dialect)', ({ dialect, skip }) => {
  let t: WebhookApp;
  let receiver: WebhookReceiver;
  let path = 0;
  /** A fresh receiver path per test, so tests do not see each other's deliveries. */
  const nextPath = () => `/hook-${++path}`;

  beforeAll(async () => {
    if (skip) return;
    receiver = await WebhookReceiver.start();
    t = await buildWebhookApp(dialect, { retryDelaysMs: [100, 200] });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  describe.skipIf(skip)('', () => {
    it('POSTs the event with the specified headers and two verifiable signatures', async () => {
      const { key } = await t.createKey('all');
      const p = nextPath();
      const hook = await t.createWebhook(key, receiver.url(p), ['board.created']);
      const board = await t.createBoard(key, 'Signed');
      const [request] = await receiver.waitFor(1, (r) => r.path === p);
      if (!request) throw new Error('no request');

      expect(request.method).toBe('POST');
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['user-agent']).toBe('Service-Webhooks/1.0');
      expect(request.headers['x-service-event']).toBe('board.created');
      expect(request.headers.authorization).toBeUndefined();
      expect(request.body).not.toContain(key);
      const body = JSON.parse(request.body);
      expect(body).toEqual({
        id: expect.stringMatching(/^evt_/),
        type: 'board.created',
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        actor: { type: 'key', id: expect.stringMatching(/^key_/), name: expect.any(String) },
        data: { board_id: board, board: { id: board, name: 'Signed' } },
      });
      expect(await signedBy(request, hook.secret)).toBe(true);
      expect(
        await signedBy({ ...request, body: request.body.replace('Signed', 'Forged') }, hook.secret),
      ).toBe(false);
      const timestamp = Number(header(request, 'webhook-timestamp'));
      expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(10);

      const delivered = await settled(t, key, hook.id, (d) => d.status === 'delivered');
      expect(request.headers['x-service-delivery']).toBe(delivered.id);
      expect(request.headers['webhook-id']).toBe(delivered.id);
      expect(delivered).toMatchObject({
        event_id: body.id,
        event_type: 'board.created',
        attempts: 1,
        response_status: 204,
        response_body: '',
        error: null,
        next_attempt_at: null,
      });
      expect(delivered.duration_ms).toBeTypeOf('number');
      expect(delivered.last_attempt_at).toBeTypeOf('string');
    });

    it('sends only the subscribed event types; "*" receives them all', async () => {
      const { key } = await t.createKey('all');
      const narrowPath = nextPath();
      const widePath = nextPath();
      await t.createWebhook(key, receiver.url(narrowPath), ['lane.created']);
      await t.createWebhook(key, receiver.url(widePath), ['*']);
      const board = await t.createBoard(key);
      const lane = await t.request(key, 'POST', `${API}/boards/${board}/lanes`, { name: 'Todo' });
      await t.request(key, 'PATCH', `${API}/boards/${board}/lanes/${lane.json().data.id}`, { name: 'Doing' });
      const wide = await receiver.waitFor(3, (r) => r.path === widePath);
      expect(wide.map((r) => r.headers['x-service-event']).sort()).toEqual([
        'board.created',
        'lane.created',
        'lane.updated',
      ]);
      const narrow = await receiver.waitFor(1, (r) => r.path === narrowPath);
      await t.whenIdle();
      expect(receiver.on(narrowPath)).toHaveLength(1);
      expect(narrow[0]?.headers['x-service-event']).toBe('lane.created');
    });

    it("sends a board's events only to webhooks whose key holds a grant on it", async () => {
      const owner = await t.createKey('all');
      const boardA = await t.createBoard(owner.key, 'A');
      const boardB = await t.createBoard(owner.key, 'B');
      const grantedA = await t.createKey({ [boardA]: 'read' });
      const everything = await t.createKey('all');
      const aPath = nextPath();
      const allPath = nextPath();
      await t.createWebhook(grantedA.key, receiver.url(aPath), ['lane.created']);
      await t.createWebhook(everything.key, receiver.url(allPath), ['lane.created']);
      await t.request(owner.key, 'POST', `${API}/boards/${boardB}/lanes`, { name: 'only B' });
      await t.request(owner.key, 'POST', `${API}/boards/${boardA}/lanes`, { name: 'on A' });
      const all = await receiver.waitFor(2, (r) => r.path === allPath);
      expect(all.map((r) => JSON.parse(r.body).data.board_id).sort()).toEqual([boardA, boardB].sort());
      const onA = await receiver.waitFor(1, (r) => r.path === aPath);
      await t.whenIdle();
      expect(receiver.on(aPath)).toHaveLength(1);
      expect(JSON.parse(onA[0]?.body ?? '{}').data).toMatchObject({ board_id: boardA, name: 'on A' });
    });

    it('does not fire for changes made outside the external API', async () => {
      const { key } = await t.createKey('all');
      const p = nextPath();
      await t.createWebhook(key, receiver.url(p), ['*']);
      await t.services.boards.createBoard(
        { kind: 'user', origin: 'ui', userId: 'u', name: 'Person', role: 'owner' },
        { name: 'UI' },
      );
      await t.services.boards.createBoard({ kind: 'system', origin: 'cli', name: 'CLI' }, { name: 'CLI' });
      await t.whenIdle();
      expect(receiver.on(p)).toEqual([]);
    });

    it('pausing stops queuing; queued deliveries wait and go out after resume', async () => {
      const { key } = await t.createKey('all');
      const p = nextPath();
      const hook = await t.createWebhook(key, receiver.url(p), ['board.created']);
      await t.request(key, 'PATCH', `${API}/webhooks/${hook.id}`, { active: false });
      await t.createBoard(key, 'while paused');
      const ping = await t.request(key, 'POST', `${API}/webhooks/${hook.id}/ping`);
      expect(ping.statusCode).toBe(202);
      await t.whenIdle();
      expect(receiver.on(p)).toEqual([]);
      const queued = await recentDeliveries(t, key, hook.id);
      expect(queued.map((d) => [d.event_type, d.status])).toEqual([['ping', 'pending']]);

      await t.request(key, 'PATCH', `${API}/webhooks/${hook.id}`, { active: true });
      const [request] = await receiver.waitFor(1, (r) => r.path === p, 3000);
      expect(request?.headers['x-service-event']).toBe('ping');
      await t.createBoard(key, 'after resume');
      const after = await receiver.waitFor(2, (r) => r.path === p);
      expect(JSON.parse(after[1]?.body ?? '{}').data.board.name).toBe('after resume');
    });

    it('ping sends {board_id: null, webhook_id}; redeliver sends the same event under a new delivery id', async () => {
      const { key } = await t.createKey('all');
      const p = nextPath();
      const hook = await t.createWebhook(key, receiver.url(p), ['todo.deleted']);
      const ping = (await t.request(key, 'POST', `${API}/webhooks/${hook.id}/ping`)).json().data;
      const [first] = await receiver.waitFor(1, (r) => r.path === p);
      if (!first) throw new Error('no ping');
      expect(JSON.parse(first.body)).toMatchObject({
        type: 'ping',
        data: { board_id: null, webhook_id: hook.id },
      });
      expect(first.headers['x-service-delivery']).toBe(ping.delivery_id);
      expect(await signedBy(first, hook.secret)).toBe(true);

      const again = await t.request(
        key,
        'POST',
        `${API}/webhooks/${hook.id}/deliveries/${ping.delivery_id}/redeliver`,
      );
      const [, second] = await receiver.waitFor(2, (r) => r.path === p);
      if (!second) throw new Error('no redelivery');
      expect(second.body).toBe(first.body);
      expect(second.headers['x-service-delivery']).toBe(again.json().data.delivery_id);
      expect(second.headers['x-service-delivery']).not.toBe(ping.delivery_id);
    });

    it('after rotate-secret, deliveries are signed with the new secret only', async () => {
      const { key } = await t.createKey('all');
      const p = nextPath();
      const hook = await t.createWebhook(key, receiver.url(p), ['board.created']);
      const rotated = (await t.request(key, 'POST', `${API}/webhooks/${hook.id}/rotate-secret`)).json().data
        .secret;
      await t.createBoard(key);
      const [request] = await receiver.waitFor(1, (r) => r.path === p);
      if (!request) throw new Error('no request');
      expect(await signedBy(request, rotated)).toBe(true);
      expect(
        await verifyGithubStyle(hook.secret, request.body, header(request, 'x-service-signature-256')),
      ).toBe(false);
    });

    it('records only the first 1 KiB of the response body', async () => {
      const { key } = await t.createKey('all');
      const p = nextPath();
      const hook = await t.createWebhook(key, receiver.url(p));
      receiver.reply = (r) =>
        r.path === p ? { status: 200, body: `${'é'.repeat(600)}${'x'.repeat(5000)}` } : { status: 204 };
      try {
        await t.request(key, 'POST', `${API}/webhooks/${hook.id}/ping`);
        const delivered = await settled(t, key, hook.id, (d) => d.status === 'delivered');
        const body = delivered.response_body as string;
        expect(Buffer.byteLength(body)).toBeLessThanOrEqual(1024);
        expect(body).toBe('é'.repeat(512));
        expect(delivered.response_status).toBe(200);
      } finally {
        receiver.reply = { status: 204 };
      }
    });

    it('never follows a redirect: a 3xx is a failed attempt with its status, retried, then failed', async () => {
      const { key } = await t.createKey('all');
      const p = nextPath();
      const target = nextPath();
      const hook = await t.createWebhook(key, receiver.url(p));
      receiver.reply = (r) =>
        r.path === p ? { status: 302, headers: { location: receiver.url(target) } } : { status: 204 };
      try {
        await t.request(key, 'POST', `${API}/webhooks/${hook.id}/ping`);
        const failed = await settled(t, key, hook.id, (d) => d.status === 'failed');
        expect(failed).toMatchObject({ attempts: 3, response_status: 302, next_attempt_at: null });
        expect(failed.error).toContain('redirect');
        expect(receiver.on(p)).toHaveLength(3);
        expect(receiver.on(target)).toEqual([]);
      } finally {
        receiver.reply = { status: 204 };
      }
    });
  });
});
