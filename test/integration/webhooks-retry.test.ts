import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/lib/time.js';
import { DIALECTS } from '../support/database.js';
import { sleep, waitUntil } from '../support/wait.js';
import { buildWebhookApp, latestDelivery, type WebhookApp } from '../support/webhook-app.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const until = <T>(probe: () => Promise<T | undefined>) =>
  waitUntil('the delivery to reach the expected state', probe, 10_000, 25);

const API = '/api/ext/v1';
const MINUTE = 60_000;

class ManualClock implements Clock {
  constructor(private current: number) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

describe.each(DIALECTS)('webhook retries on the specified schedule ($dialect)', ({ dialect, skip }) => {
  let t: WebhookApp;
  let receiver: WebhookReceiver;
  const clock = new ManualClock(Date.parse('2026-11-21T10:00:00.000Z'));
  beforeAll(async () => {
    if (skip) return;
    receiver = await WebhookReceiver.start();
    receiver.reply = { status: 500, body: 'down for maintenance' };
    // The specification's schedule, with time under the test's control.
    t = await buildWebhookApp(dialect, {
      clock,
      retryDelaysMs: [MINUTE, 5 * MINUTE, 30 * MINUTE, 120 * MINUTE],
    });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  describe.skipIf(skip)('', () => {
    it('retries after 1m, 5m, 30m and 2h, then fails permanently after the 5th attempt', async () => {
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
        t.dispatcher.wake();
        await sleep(300);
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
      t.dispatcher.wake();
      await sleep(300);
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
      await sleep(400);
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
});

describe.each(DIALECTS)(
  'webhook retries, time-outs and concurrency in real time ($dialect)',
  ({ dialect, skip }) => {
    let t: WebhookApp;
    let receiver: WebhookReceiver;
    beforeAll(async () => {
      if (skip) return;
      receiver = await WebhookReceiver.start();
      t = await buildWebhookApp(dialect, {
        retryDelaysMs: [150, 300],
        timeoutMs: 300,
        maxConcurrency: 6,
        perHostConcurrency: 3,
      });
    });
    afterAll(async () => {
      await t?.close();
      await receiver?.close();
    });

    describe.skipIf(skip)('', () => {
      it('waits the configured delays between attempts, and succeeds when the receiver recovers', async () => {
        const { key } = await t.createKey('all');
        let calls = 0;
        receiver.reply = (r) =>
          r.path === '/flaky' ? { status: ++calls < 3 ? 503 : 200, body: 'ok' } : { status: 204 };
        const hook = await t.createWebhook(key, receiver.url('/flaky'));
        await t.request(key, 'POST', `${API}/webhooks/${hook.id}/ping`);
        const [a, b, c] = await receiver.waitFor(3, (r) => r.path === '/flaky');
        if (!a || !b || !c) throw new Error('missing attempts');
        expect(b.receivedAt - a.receivedAt).toBeGreaterThanOrEqual(140);
        expect(b.receivedAt - a.receivedAt).toBeLessThan(1500);
        expect(c.receivedAt - b.receivedAt).toBeGreaterThanOrEqual(290);
        expect(c.receivedAt - b.receivedAt).toBeLessThan(1700);
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
        await sleep(500);
        expect(receiver.on('/flaky')).toHaveLength(3);
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

      it('two dispatchers on one database never send a delivery twice', async () => {
        const { key } = await t.createKey('all');
        receiver.reply = { status: 204 };
        const other = t.newDispatcher();
        other.start();
        try {
          const hooks = await Promise.all(
            [1, 2, 3, 4].map((i) => t.createWebhook(key, receiver.url(`/pair-${i}`))),
          );
          const queued: string[] = [];
          for (let i = 0; i < 25; i++) {
            for (const hook of hooks) {
              queued.push(
                (await t.request(key, 'POST', `${API}/webhooks/${hook.id}/ping`)).json().data.delivery_id,
              );
            }
          }
          const got = await receiver.waitFor(100, (r) => r.path.startsWith('/pair-'), 15_000);
          await sleep(300);
          const ids = receiver.requests
            .filter((r) => r.path.startsWith('/pair-'))
            .map((r) => String(r.headers['x-service-delivery']));
          expect(new Set(ids).size).toBe(100);
          // A delivery may arrive twice only as a retry: its receiver answered after the 300 ms time-out
          // (a busy machine), the attempt counted as failed and the next one was sent. Two dispatchers
          // holding it at once would send it twice with one recorded attempt (the second record is
          // refused for its lease): so each arrival must be a recorded attempt.
          const arrivals = new Map<string, number>();
          for (const id of ids) arrivals.set(id, (arrivals.get(id) ?? 0) + 1);
          const repeated = [...arrivals].filter(([, n]) => n > 1).map(([id]) => id);
          if (repeated.length > 0) {
            await waitUntil('the repeated deliveries to be recorded', async () => {
              const rows = await t.db.database.kysely
                .selectFrom('webhook_deliveries')
                .select(['id', 'attempts', 'status'])
                .where('id', 'in', repeated)
                .execute();
              return rows.every((row) => row.status === 'delivered') ? rows : undefined;
            }).then((rows) => {
              for (const row of rows) expect(row.attempts).toBeGreaterThanOrEqual(arrivals.get(row.id) ?? 0);
            });
          }
          expect(new Set(got.map((r) => r.headers['x-service-delivery']))).toEqual(new Set(queued));
        } finally {
          await other.stop();
        }
      });
    });
  },
);

describe.each(DIALECTS)('one slow receiver does not starve the others ($dialect)', ({ dialect, skip }) => {
  let t: WebhookApp;
  let slow: WebhookReceiver;
  let fast: WebhookReceiver;
  beforeAll(async () => {
    if (skip) return;
    slow = await WebhookReceiver.start();
    fast = await WebhookReceiver.start();
    slow.reply = { status: 200, delayMs: 1000 };
    t = await buildWebhookApp(dialect, { timeoutMs: 5000, maxConcurrency: 6, perHostConcurrency: 3 });
  });
  afterAll(async () => {
    await t?.close();
    await slow?.close();
    await fast?.close();
  });

  describe.skipIf(skip)('', () => {
    it('serves a fast receiver while a slow one holds its share of the slots (per-host limit)', async () => {
      const { key } = await t.createKey('all');
      const stuck = await t.createWebhook(key, slow.url('/stuck'));
      const quick = await t.createWebhook(key, fast.url('/quick'));
      for (let i = 0; i < 6; i++) await t.request(key, 'POST', `${API}/webhooks/${stuck.id}/ping`);
      for (let i = 0; i < 4; i++) await t.request(key, 'POST', `${API}/webhooks/${quick.id}/ping`);
      const quickOnes = await fast.waitFor(4, () => true, 3000);
      // The slow host gets 3 attempts at a time, each answered after 1 s; the fast host is served
      // meanwhile, before the slow host's 4th attempt can start.
      const stuckOnes = await slow.waitFor(4, () => true, 5000);
      const lastQuick = Math.max(...quickOnes.map((r) => r.receivedAt));
      expect(lastQuick).toBeLessThan(stuckOnes[3]?.receivedAt ?? 0);
      expect((stuckOnes[3]?.receivedAt ?? 0) - (stuckOnes[0]?.receivedAt ?? 0)).toBeGreaterThanOrEqual(950);
      expect(
        peakConcurrency(
          slow.requests.map((r) => r.receivedAt),
          1000,
        ),
      ).toBe(3);
      await slow.waitFor(6, () => true, 5000);
    });
  });
});

describe.each(DIALECTS)('a slow host claimed in one batch ($dialect)', ({ dialect, skip }) => {
  let t: WebhookApp;
  let slow: WebhookReceiver;
  let fast: WebhookReceiver;
  beforeAll(async () => {
    if (skip) return;
    slow = await WebhookReceiver.start();
    fast = await WebhookReceiver.start();
    // Longer than the fast host is given below: a fast delivery that waits for a slow attempt fails.
    slow.reply = { status: 200, delayMs: 4000 };
    t = await buildWebhookApp(dialect, {
      timeoutMs: 5000,
      maxConcurrency: 6,
      perHostConcurrency: 3,
      startDispatcher: false,
    });
  });
  afterAll(async () => {
    await t?.close();
    await slow?.close();
    await fast?.close();
  });

  describe.skipIf(skip)('', () => {
    it('does not take every slot when the first claim finds only its deliveries', async () => {
      const { key } = await t.createKey('all');
      const stuck = await t.createWebhook(key, slow.url('/stuck'));
      const quick = await t.createWebhook(key, fast.url('/quick'));
      // Queued before the dispatcher runs, so its first claim (6 free slots) takes the 6 slow ones.
      for (let i = 0; i < 6; i++) await t.request(key, 'POST', `${API}/webhooks/${stuck.id}/ping`);
      for (let i = 0; i < 4; i++) await t.request(key, 'POST', `${API}/webhooks/${quick.id}/ping`);
      t.dispatcher.start();
      await fast.waitFor(4, () => true, 2500);
      expect(slow.requests.length).toBe(3);
    });
  });
});

/** The most requests that arrived within any window of `windowMs` (a proxy for attempts in flight). */
function peakConcurrency(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let peak = 0;
  for (let i = 0; i < sorted.length; i++) {
    let j = i;
    while (j < sorted.length && (sorted[j] as number) - (sorted[i] as number) < windowMs - 20) j++;
    peak = Math.max(peak, j - i);
  }
  return peak;
}
