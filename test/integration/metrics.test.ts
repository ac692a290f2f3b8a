import { expect, it } from 'vitest';
import { describeEachDialect } from '../support/dialects.js';
import { useReceiver } from '../support/webhook-receiver.js';
import { API, MINUTE, sample, TOKEN, useMetricsApp } from './metrics-fixture.js';

const requests = (text: string, method: string, route: string, statusClass: string) =>
  sample(text, 'laneboard_http_request_duration_seconds_count', {
    method,
    route,
    status_class: statusClass,
  }) ?? 0;

describeEachDialect('GET /metrics without LANEBOARD_METRICS_TOKEN', (dialect) => {
  const t = useMetricsApp(dialect, { token: null });

  it('is an unknown route (404 in the error format), with or without a token', async () => {
    expect(t.runtime.metrics).toBeNull();
    for (const authorization of [undefined, `Bearer ${TOKEN}`]) {
      const res = await t.scrape(authorization);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: { code: 'not_found', message: 'No route GET /metrics.' } });
    }
  });
});

describeEachDialect('GET /metrics', (dialect) => {
  const t = useMetricsApp(dialect, { token: TOKEN });

  it('answers 401 in the error format without the token, with a wrong one or another scheme', async () => {
    const cases: Array<[string | undefined, string]> = [
      [undefined, 'missing_auth'],
      [`Bearer ${TOKEN}x`, 'invalid_key'],
      [`Bearer ${TOKEN.slice(0, -1)}`, 'invalid_key'],
      [`Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`, 'invalid_key'],
      ['Bearer', 'invalid_key'],
    ];
    for (const [authorization, code] of cases) {
      const res = await t.scrape(authorization);
      expect(res.statusCode, authorization).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.json().error).toMatchObject({ code, message: expect.stringContaining('metrics token') });
      expect(res.body).not.toContain(TOKEN);
    }
  });

  it('answers 200 in the Prometheus text format with every metric', async () => {
    const res = await t.scrape(`bearer ${TOKEN}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    for (const name of [
      'laneboard_http_request_duration_seconds',
      'laneboard_webhook_attempts_total',
      'laneboard_webhook_deliveries_pending',
      'laneboard_webhook_oldest_due_delivery_age_seconds',
      'laneboard_webhooks_failing',
      'laneboard_webhooks',
      'laneboard_event_loop_delay_seconds',
      'laneboard_live_streams_open',
      ...(dialect === 'postgres' ? ['laneboard_db_pool_waiting', 'laneboard_db_pool_connections'] : []),
    ]) {
      expect(res.body).toContain(`# TYPE ${name} `);
    }
    expect(sample(res.body, 'laneboard_webhook_attempts_total', { outcome: 'failed' })).toBe(0);
    expect(
      sample(res.body, 'laneboard_event_loop_delay_seconds', { quantile: '0.99' }),
    ).toBeGreaterThanOrEqual(0);
    if (dialect === 'postgres') {
      expect(sample(res.body, 'laneboard_db_pool_waiting')).toBe(0);
      expect(sample(res.body, 'laneboard_db_pool_connections', { state: 'idle' })).toBeGreaterThan(0);
    } else {
      expect(res.body).not.toContain('laneboard_db_pool');
    }
  });

  it('counts requests under their route pattern and status class, never their raw URL', async () => {
    const board = (await t.api('POST', `${API}/boards`, { name: 'Counted' })).json().data.id as string;
    const route = `${API}/boards/:boardId`;
    const before = await t.metrics();
    for (let i = 0; i < 3; i++) expect((await t.api('GET', `${API}/boards/${board}`)).statusCode).toBe(200);
    expect((await t.api('GET', `${API}/boards/brd_missing`)).statusCode).toBe(404);
    expect((await t.api('GET', `${API}/no/such/route/${board}`)).statusCode).toBe(404);
    const after = await t.metrics();
    expect(requests(after, 'GET', route, '2xx') - requests(before, 'GET', route, '2xx')).toBe(3);
    expect(requests(after, 'GET', route, '4xx') - requests(before, 'GET', route, '4xx')).toBe(1);
    expect(requests(after, 'GET', '(unmatched)', '4xx') - requests(before, 'GET', '(unmatched)', '4xx')).toBe(
      1,
    );
    expect(requests(after, 'POST', `${API}/boards`, '2xx')).toBe(1);
    // 401s to the metrics route are requests too; the ids of the URLs never become labels.
    expect(requests(after, 'GET', '/metrics', '4xx')).toBeGreaterThanOrEqual(5);
    expect(after).not.toContain(board);
    expect(after).not.toContain('brd_missing');
    expect(
      sample(after, 'laneboard_http_request_duration_seconds_bucket', {
        method: 'GET',
        route,
        status_class: '2xx',
        le: '+Inf',
      }),
    ).toBe(requests(after, 'GET', route, '2xx'));
  });
});

describeEachDialect('GET /metrics: webhook attempts and the outbox', (dialect) => {
  const receiver = useReceiver();
  const t = useMetricsApp(dialect, { token: TOKEN });

  const ping = async (webhookId: string) => {
    const res = await t.api('POST', `${API}/webhooks/${webhookId}/ping`);
    expect(res.statusCode).toBe(202);
  };
  const attempts = (text: string, outcome: string) =>
    sample(text, 'laneboard_webhook_attempts_total', { outcome });

  it('counts attempts by outcome: delivered, retrying (a retry to come), failed (for good)', async () => {
    receiver.reply = (request) => ({ status: request.path === '/ok' ? 204 : 500 });
    const ok = (await t.api('POST', `${API}/webhooks`, { url: receiver.url('/ok'), events: ['*'] })).json()
      .data;
    const down = (
      await t.api('POST', `${API}/webhooks`, { url: receiver.url('/down'), events: ['*'] })
    ).json().data;
    let text = await t.metrics();
    expect(sample(text, 'laneboard_webhooks', { state: 'active' })).toBe(2);
    expect(sample(text, 'laneboard_webhook_deliveries_pending')).toBe(0);

    await ping(ok.id);
    await t.runtime.dispatcher.whenIdle();
    text = await t.metrics();
    expect(attempts(text, 'delivered')).toBe(1);
    expect(attempts(text, 'retrying')).toBe(0);

    await ping(down.id);
    await t.runtime.dispatcher.whenIdle();
    text = await t.metrics();
    expect([attempts(text, 'delivered'), attempts(text, 'retrying'), attempts(text, 'failed')]).toEqual([
      1, 1, 0,
    ]);
    // Waiting for its retry in a minute: pending, its webhook failing, nothing due yet.
    expect(sample(text, 'laneboard_webhook_deliveries_pending')).toBe(1);
    expect(sample(text, 'laneboard_webhooks_failing')).toBe(1);
    expect(sample(text, 'laneboard_webhook_oldest_due_delivery_age_seconds')).toBe(0);

    // The retry comes due and fails too: the delivery has failed for good.
    t.clock.advance(MINUTE + 1000);
    t.runtime.dispatcher.wake();
    await receiver.waitFor(2, (request) => request.path === '/down');
    await t.runtime.dispatcher.whenIdle();
    text = await t.metrics();
    expect([attempts(text, 'delivered'), attempts(text, 'retrying'), attempts(text, 'failed')]).toEqual([
      1, 1, 1,
    ]);
    expect(sample(text, 'laneboard_webhook_deliveries_pending')).toBe(0);
    expect(sample(text, 'laneboard_webhooks_failing')).toBe(0);
  });
});

describeEachDialect('GET /metrics: deliveries waiting for a dispatcher', (dialect) => {
  const receiver = useReceiver();
  const t = useMetricsApp(dialect, { token: TOKEN, startDispatcher: false });

  it("reports the oldest due delivery's wait, leaving out paused webhooks' deliveries", async () => {
    const hook = (
      await t.api('POST', `${API}/webhooks`, { url: receiver.url('/late'), events: ['*'] })
    ).json().data;
    expect((await t.api('POST', `${API}/webhooks/${hook.id}/ping`)).statusCode).toBe(202);
    t.clock.advance(30_000);
    expect((await t.api('POST', `${API}/webhooks/${hook.id}/ping`)).statusCode).toBe(202);
    t.clock.advance(60_000);
    let text = await t.metrics();
    expect(sample(text, 'laneboard_webhook_deliveries_pending')).toBe(2);
    expect(sample(text, 'laneboard_webhook_oldest_due_delivery_age_seconds')).toBe(90);
    expect(sample(text, 'laneboard_webhooks_failing')).toBe(0);

    // Paused: its deliveries wait by design, so they are not late.
    expect((await t.api('PATCH', `${API}/webhooks/${hook.id}`, { active: false })).statusCode).toBe(200);
    text = await t.metrics();
    expect(sample(text, 'laneboard_webhook_oldest_due_delivery_age_seconds')).toBe(0);
    expect(sample(text, 'laneboard_webhook_deliveries_pending')).toBe(2);
    expect(sample(text, 'laneboard_webhooks', { state: 'paused' })).toBe(1);
    expect(sample(text, 'laneboard_webhooks', { state: 'active' })).toBe(0);
    expect(receiver.requests).toHaveLength(0);
  });
});
