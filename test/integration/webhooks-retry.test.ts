import { expect, it } from 'vitest';
import { ManualClock } from '../support/clock.js';
import { describeEachDialect } from '../support/dialects.js';
import { waitUntil } from '../support/wait.js';
import { latestDelivery, useWebhookApp } from '../support/webhook-app.js';
import { useReceiver, WebhookReceiver } from '../support/webhook-receiver.js';

const until = <T>(probe: () => Promise<T | undefined>) =>
  waitUntil('the delivery to reach the expected state', probe, 10_000, 25);

const API = '/api/ext/v1';
const MINUTE = 60_000;

describeEachDialect('webhook retries on the specified schedule', (dialect) => {
  const receiver = useReceiver();
  const clock = new ManualClock(Date.parse('2026-11-21T10:00:00.000Z'));
  // The specification's schedule, with time under the test's control.
  const t = useWebhookApp(dialect, { clock, retryDelaysMs: [MINUTE, 5 * MINUTE, 30 * MINUTE, 120 * MINUTE] });
  it('retries after 1m, 5m, 30m and 2h, then fails permanently after the 5th attempt', async () => {
    receiver.reply = { status: 500, body: 'down for maintenance' };
    const { key } = await t.createKey('all');
    const hook = await t.createWebhook(key, receiver.url('/down'));
    const ping = (await t.request(key, 'POST', `${API}/webhooks/${hook.id}/ping`)).json().data;
    await receiver.waitFor(1);
    const first = await until(async () => {
      const d = await latestDelivery(t, key, hook.id);
      return d.attempts === 1 ? d : undefined;
    });
    expect(first).toMatchObject({
      id: ping.delivery_id,
      status: 'pending',
      response_status: 500,
      response_body: 'down for maintenance',
      error: 'Receiver answered HTTP 500.',
      next_attempt_at: new Date(clock.now() + MINUTE).toISOString(),
    });

    for (const [attempt, delay] of [
      [2, MINUTE],
      [3, 5 * MINUTE],
      [4, 30 * MINUTE],
      [5, 120 * MINUTE],
    ] as const) {
      clock.advance(delay - 1000);
      await t.whenIdle();
      expect(receiver.requests, `attempt ${attempt} must wait ${delay} ms`).toHaveLength(attempt - 1);
      clock.advance(1000);
      t.dispatcher.wake();
      await receiver.waitFor(attempt);
      await until(async () =>
        (await latestDelivery(t, key, hook.id)).attempts === attempt ? true : undefined,
      );
    }
    const last = await latestDelivery(t, key, hook.id);
    expect(last).toMatchObject({
      status: 'failed',
      attempts: 5,
      next_attempt_at: null,
      response_status: 500,
    });
    const ids = new Set(receiver.requests.map((r) => r.headers['x-service-delivery']));
    expect([...ids]).toEqual([ping.delivery_id]);

    clock.advance(24 * 60 * MINUTE);
    await t.whenIdle();
    expect(receiver.requests).toHaveLength(5);
  });

  it('retries a delivery whose claimer crashed once its lease has run out, not before', async () => {
    const { key } = await t.createKey('all');
    receiver.reply = { status: 204 };
    const hook = await t.createWebhook(key, receiver.url('/lease'));
    // Another instance claimed the delivery and died mid-attempt (simulated by taking the lease first).
    await t.request(key, 'PATCH', `${API}/webhooks/${hook.id}`, { active: false });
    const ping = (await t.request(key, 'POST', `${API}/webhooks/${hook.id}/ping`)).json().data;
    await t.db.database.kysely
      .updateTable('webhook_deliveries')
      .set({ lease_owner: 'crashed-instance:1', lease_until: clock.now() + 30_000 })
      .where('id', '=', ping.delivery_id)
      .execute();
    await t.request(key, 'PATCH', `${API}/webhooks/${hook.id}`, { active: true });
    await t.whenIdle();
    expect(receiver.on('/lease')).toEqual([]);
    clock.advance(30_001);
    t.dispatcher.wake();
    const [request] = await receiver.waitFor(1, (r) => r.path === '/lease');
    expect(request?.headers['x-service-delivery']).toBe(ping.delivery_id);
    const delivered = await until(async () => {
      const d = await latestDelivery(t, key, hook.id);
      return d.status === 'delivered' ? d : undefined;
    });
    expect(delivered.attempts).toBe(1);
  });
});

describeEachDialect('webhook retries in real time', (dialect) => {
  const receiver = useReceiver();
  // Attempts time out only after 10 s, so a busy machine's slow answer is not a failed attempt.
  const t = useWebhookApp(dialect, { retryDelaysMs: [150, 300], timeoutMs: 10_000 });
  it('waits the configured delays between attempts, and succeeds when the receiver recovers', async () => {
    const { key } = await t.createKey('all');
    let calls = 0;
    receiver.reply = (r) =>
      r.path === '/flaky' ? { status: ++calls < 3 ? 503 : 200, body: 'ok' } : { status: 204 };
    const hook = await t.createWebhook(key, receiver.url('/flaky'));
    await t.request(key, 'POST', `${API}/webhooks/${hook.id}/ping`);
    const [a, b, c] = await receiver.waitFor(3, (r) => r.path === '/flaky');
    if (!a || !b || !c) throw new Error('missing attempts');
    // Never before the delay; after it by no more than a busy machine's scheduling (the upper bounds
    // only catch a retry that waited for something else, such as a much longer schedule).
    expect(b.receivedAt - a.receivedAt).toBeGreaterThanOrEqual(140);
    expect(b.receivedAt - a.receivedAt).toBeLessThan(10_000);
    expect(c.receivedAt - b.receivedAt).toBeGreaterThanOrEqual(290);
    expect(c.receivedAt - b.receivedAt).toBeLessThan(10_000);
    const ids = new Set([a, b, c].map((r) => r.headers['x-service-delivery']));
    expect(ids.size).toBe(1);
    const delivered = await until(async () => {
      const d = await latestDelivery(t, key, hook.id);
      return d.status === 'delivered' ? d : undefined;
    });
    expect(delivered).toMatchObject({
      attempts: 3,
      response_status: 200,
      response_body: 'ok',
      error: null,
    });
    await t.whenIdle();
    expect(receiver.on('/flaky')).toHaveLength(3);
  });
});

describeEachDialect('webhook time-outs and connection errors in real time', (dialect) => {
  const receiver = useReceiver();
  const t = useWebhookApp(dialect, {
    retryDelaysMs: [150, 300],
    timeoutMs: 300,
    maxConcurrency: 6,
    perHostConcurrency: 3,
  });
  it('counts no answer within the time-out as a failed attempt, and fails after the last one', async () => {
    const { key } = await t.createKey('all');
    receiver.reply = (r) => (r.path === '/slow' ? { status: 200, delayMs: 2000 } : { status: 204 });
    const hook = await t.createWebhook(key, receiver.url('/slow'));
    await t.request(key, 'POST', `${API}/webhooks/${hook.id}/ping`);
    const failed = await until(async () => {
      const d = await latestDelivery(t, key, hook.id);
      return d.status === 'failed' ? d : undefined;
    });
    expect(failed).toMatchObject({
      attempts: 3,
      response_status: null,
      error: 'No response within 300 ms.',
    });
    expect(failed.duration_ms as number).toBeGreaterThanOrEqual(280);
    expect(failed.duration_ms as number).toBeLessThan(1500);
    expect(receiver.on('/slow')).toHaveLength(3);
  });

  it('records connection errors as failed attempts', async () => {
    const { key } = await t.createKey('all');
    const closed = await WebhookReceiver.start();
    const url = closed.url('/gone');
    await closed.close();
    const hook = await t.createWebhook(key, url);
    await t.request(key, 'POST', `${API}/webhooks/${hook.id}/ping`);
    const failed = await until(async () => {
      const d = await latestDelivery(t, key, hook.id);
      return d.status === 'failed' ? d : undefined;
    });
    expect(failed.error).toContain('ECONNREFUSED');
    expect(failed.attempts).toBe(3);
  });
});
