import { expect, it } from 'vitest';
import { describeEachDialect, useFixture } from '../support/dialects.js';
import { waitUntil } from '../support/wait.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { expectErrorCode, GOOD_PASSWORD, useUiTestApp } from './ui-support.js';

describeEachDialect('web UI settings: keys and webhooks over HTTP', (dialect) => {
  // The receiver first, so it closes after the app whose dispatcher sends to it.
  const receiver = useFixture(
    'the webhook receiver',
    () => WebhookReceiver.start(),
    (r) => r.close(),
  );
  const t = useUiTestApp(dialect, { deliver: true });

  const ext = (key: string, method: 'GET' | 'POST', url: string, body?: unknown) =>
    t.app.inject({
      method,
      url: `/api/ext/v1${url}`,
      headers: { authorization: `Bearer ${key}` },
      ...(body === undefined ? {} : { payload: body as object }),
    });

  it('a member creates a key that works, reveals it with the password, and revokes it', async () => {
    const { browser } = await t.person('member', 'Mia');
    const created = await browser.request('POST', '/api/ui/keys', {
      name: 'laptop',
      allBoards: true,
      grants: [],
    });
    expect(created.statusCode).toBe(201);
    const key = created.json().data;
    expect(key).toMatchObject({
      name: 'laptop',
      allBoards: true,
      owner: { name: 'Mia' },
      lastUsedAt: null,
      webhookCount: 0,
      reveals: [],
    });
    expect(key.prefix).toBe(key.key.slice(0, 7));

    expect((await ext(key.key, 'GET', '/boards')).statusCode).toBe(200);
    const listed = await waitUntil('last use recorded', async () => {
      const [item] = (await browser.request('GET', '/api/ui/keys')).json().data;
      return item.lastUsedAt ? item : undefined;
    });
    expect(listed.lastUsedAt).toBe(new Date(t.clock.now()).toISOString());

    expectErrorCode(
      await browser.request('POST', `/api/ui/keys/${key.id}/reveal`, { password: 'wrong password' }),
      401,
      'invalid_credentials',
    );
    const revealed = await browser.request('POST', `/api/ui/keys/${key.id}/reveal`, {
      password: GOOD_PASSWORD,
    });
    expect(revealed.json()).toEqual({ data: { id: key.id, key: key.key } });
    const afterReveal = (await browser.request('GET', '/api/ui/keys')).json().data[0];
    expect(afterReveal.reveals).toEqual([
      { at: expect.any(String), user: { id: expect.any(String), name: 'Mia' } },
    ]);

    const bad = await browser.request('PUT', `/api/ui/keys/${key.id}/grants`, {
      allBoards: false,
      grants: [],
    });
    expectErrorCode(bad, 400, 'validation_error');

    const revoked = await browser.request('DELETE', `/api/ui/keys/${key.id}`);
    expect(revoked.json().data).toMatchObject({ id: key.id, webhooksRemoved: 0 });
    expectErrorCode(await ext(key.key, 'GET', '/boards'), 401, 'invalid_key');
  });

  it('members get 403 from every webhook endpoint', async () => {
    const { browser } = await t.person('member');
    for (const [method, url] of [
      ['GET', '/api/ui/webhooks'],
      ['GET', '/api/ui/event-types'],
      ['GET', '/api/ui/webhooks/wh_x'],
      ['POST', '/api/ui/webhooks/wh_x/ping'],
      ['DELETE', '/api/ui/webhooks/wh_x'],
      ['GET', '/api/ui/people'],
    ] as const) {
      expectErrorCode(await browser.request(method, url), 403, 'forbidden');
    }
    expectErrorCode(
      await browser.request('POST', '/api/ui/webhooks', {
        url: 'http://127.0.0.1:1/x',
        events: ['*'],
        apiKeyId: 'key_x',
      }),
      403,
      'forbidden',
    );
  });

  it('an admin runs a webhook: external changes are delivered and logged, UI changes are not', async () => {
    const { browser } = await t.person('admin', 'Ada');
    const key = (
      await browser.request('POST', '/api/ui/keys', { name: 'integration', allBoards: true, grants: [] })
    ).json().data;
    const types = (await browser.request('GET', '/api/ui/event-types')).json().data;
    expect(types).toContain('task.created');
    expect(types).not.toContain('*');

    const badUrl = await browser.request('POST', '/api/ui/webhooks', {
      url: 'ftp://example.com/x',
      events: ['*'],
      apiKeyId: key.id,
    });
    expectErrorCode(badUrl, 400, 'validation_error');
    expect(badUrl.json().error.message).toContain('`url`');
    const badEvents = await browser.request('POST', '/api/ui/webhooks', {
      url: receiver.url('/hook'),
      events: ['task.exploded'],
      apiKeyId: key.id,
    });
    expectErrorCode(badEvents, 400, 'validation_error');

    const created = await browser.request('POST', '/api/ui/webhooks', {
      url: receiver.url('/hook'),
      events: ['*'],
      apiKeyId: key.id,
    });
    expect(created.statusCode).toBe(201);
    const hook = created.json().data;
    expect(hook).toMatchObject({
      events: ['*'],
      active: true,
      apiKey: { id: key.id, name: 'integration' },
      lastDelivery: null,
    });
    expect(hook.secret).toMatch(/^whsec_/);

    // A UI change: recorded as the person's activity, never delivered.
    const uiBoard = (await browser.request('POST', '/api/ui/boards', { name: 'From the UI' })).json().data;
    const activities = await t.services.activities.listForBoard(
      { kind: 'system', origin: 'cli', name: 'CLI' },
      uiBoard.id,
    );
    expect(activities.data[0]).toMatchObject({ type: 'board.created' });
    // An external change: delivered.
    receiver.reply = { status: 204 };
    const extBoard = (await ext(key.key, 'POST', '/boards', { name: 'From the API' })).json().data;
    await receiver.waitFor(1);
    const delivered = await waitUntil('the delivery is logged', async () => {
      const detail = (await browser.request('GET', `/api/ui/webhooks/${hook.id}`)).json().data;
      return detail.deliveries[0]?.status === 'delivered' ? detail : undefined;
    });
    expect(receiver.requests).toHaveLength(1);
    expect(JSON.parse(receiver.requests[0]?.body ?? '{}').data.board_id).toBe(extBoard.id);
    expect(delivered.deliveries).toHaveLength(1);
    expect(delivered.deliveries[0]).toMatchObject({
      eventType: 'board.created',
      status: 'delivered',
      nextAttemptAt: null,
      attempts: [{ number: 1, responseStatus: 204, error: null }],
    });
    expect(delivered.deliveries[0].attempts[0].durationMs).toEqual(expect.any(Number));

    // A failing receiver: the attempt is logged with its status and body, and the next attempt's time.
    receiver.reply = { status: 500, body: 'receiver broke' };
    const ping = await browser.request('POST', `/api/ui/webhooks/${hook.id}/ping`);
    expect(ping.statusCode).toBe(202);
    const pingId = ping.json().data.deliveryId;
    const failed = await waitUntil('the failed attempt is logged', async () => {
      const detail = (await browser.request('GET', `/api/ui/webhooks/${hook.id}?status=pending`)).json().data;
      const d = detail.deliveries.find((x: { id: string }) => x.id === pingId);
      return d?.attempts.length === 1 ? d : undefined;
    });
    expect(failed).toMatchObject({
      eventType: 'ping',
      status: 'pending',
      attempts: [{ number: 1, responseStatus: 500, responseBody: 'receiver broke' }],
    });
    expect(Date.parse(failed.nextAttemptAt)).toBe(t.clock.now() + 60_000);
    // An attempt the delivery row does not count yet (recorded between the page's two reads) waits.
    await t.db.database.kysely
      .insertInto('webhook_delivery_attempts')
      .values({
        delivery_id: pingId,
        number: 2,
        at: new Date(t.clock.now()).toISOString(),
        response_status: 500,
        response_body: 'later',
        duration_ms: 1,
        error: null,
      })
      .execute();
    const shown = (await browser.request('GET', `/api/ui/webhooks/${hook.id}?status=pending`)).json().data;
    expect(shown.deliveries.find((x: { id: string }) => x.id === pingId).attempts).toHaveLength(1);
    const onlyDelivered = (
      await browser.request('GET', `/api/ui/webhooks/${hook.id}?status=delivered`)
    ).json().data;
    expect(onlyDelivered.deliveries.map((d: { status: string }) => d.status)).toEqual(['delivered']);
    expectErrorCode(
      await browser.request('GET', `/api/ui/webhooks/${hook.id}?status=weird`),
      400,
      'validation_error',
    );

    // Redeliver the delivered event.
    receiver.reply = { status: 200 };
    const again = await browser.request(
      'POST',
      `/api/ui/webhooks/${hook.id}/deliveries/${delivered.deliveries[0].id}/redeliver`,
    );
    expect(again.statusCode).toBe(202);
    await receiver.waitFor(3);

    const list = (await browser.request('GET', '/api/ui/webhooks')).json().data;
    expect(list.find((w: { id: string }) => w.id === hook.id).lastDelivery).toMatchObject({
      id: again.json().data.deliveryId,
    });

    const paused = await browser.request('PATCH', `/api/ui/webhooks/${hook.id}`, { active: false });
    expect(paused.json().data.active).toBe(false);
    const rotated = await browser.request('POST', `/api/ui/webhooks/${hook.id}/rotate-secret`);
    expect(rotated.json().data.secret).toMatch(/^whsec_/);
    expect(rotated.json().data.secret).not.toBe(hook.secret);

    expect(
      (await browser.request('GET', '/api/ui/keys')).json().data.find((k: { id: string }) => k.id === key.id)
        .webhookCount,
    ).toBe(1);
    const revoked = await browser.request('DELETE', `/api/ui/keys/${key.id}`);
    expect(revoked.json().data.webhooksRemoved).toBe(1);
    expectErrorCode(await browser.request('GET', `/api/ui/webhooks/${hook.id}`), 404, 'not_found');
  });

  it('board resources under /api/ui: the person is the author and nothing is delivered', async () => {
    const { browser } = await t.person('member', 'Grace');
    const board = (await browser.request('POST', '/api/ui/boards', { name: 'Team' })).json().data;
    const lane = (await browser.request('POST', `/api/ui/boards/${board.id}/lanes`, { name: 'Todo' })).json()
      .data;
    const task = await browser.request('POST', `/api/ui/boards/${board.id}/tasks`, {
      title: 'Ship',
      laneId: lane.id,
    });
    expect(task.statusCode).toBe(201);
    const comments = `/api/ui/boards/${board.id}/tasks/${task.json().data.id}/comments`;
    const comment = await browser.request('POST', comments, { body: 'On it' });
    expect(comment.statusCode).toBe(201);
    expect(comment.json().data).toMatchObject({
      body: 'On it',
      authorName: 'Grace',
      authorSource: 'user',
      source: 'user',
    });
    expectErrorCode(
      await browser.request('POST', comments, { body: 'x', authorName: 'Someone else' }),
      400,
      'validation_error',
    );
    const listed = (await browser.request('GET', comments)).json().data;
    expect(listed.map((c: { authorName: string }) => c.authorName)).toEqual(['Grace']);
    // Every person sees every board with edit.
    const boards = (await t.browser().request('GET', '/api/ui/boards')).statusCode;
    expect(boards).toBe(401);
  });
});
