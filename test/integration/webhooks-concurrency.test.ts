import { expect, it } from 'vitest';
import { describeEachDialect } from '../support/dialects.js';
import { waitUntil } from '../support/wait.js';
import { useWebhookApp } from '../support/webhook-app.js';
import { useReceiver } from '../support/webhook-receiver.js';

const API = '/api/ext/v1';

describeEachDialect('two dispatchers on one database', (dialect) => {
  const receiver = useReceiver();
  // Few slots, so the two dispatchers' claims interleave; a time-out no busy machine reaches, so every
  // attempt is answered and a second arrival can only come from a second claimer.
  const t = useWebhookApp(dialect, { timeoutMs: 20_000, maxConcurrency: 6, perHostConcurrency: 3 });

  it('never send a delivery twice, and lose none', async () => {
    const { key } = await t.createKey('all');
    receiver.reply = { status: 204 };
    const other = t.newDispatcher();
    other.start();
    const hooks = await Promise.all(
      [1, 2, 3, 4].map((i) => t.createWebhook(key, receiver.url(`/pair-${i}`))),
    );
    const queued: string[] = [];
    for (let i = 0; i < 25; i++) {
      for (const hook of hooks) {
        const ping = await t.request(key, 'POST', `${API}/webhooks/${hook.id}/ping`);
        queued.push(ping.json().data.delivery_id);
      }
    }
    // Every delivery reaches a final state (a lost one would stay pending and fail this wait)...
    const rows = await waitUntil(
      'all 100 deliveries to be recorded as delivered',
      async () => {
        const found = await t.db.database.kysely
          .selectFrom('webhook_deliveries')
          .select(['id', 'status', 'attempts'])
          .where('id', 'in', queued)
          .execute();
        return found.every((row) => row.status === 'delivered') ? found : undefined;
      },
      60_000,
    );
    // ...and once both dispatchers are idle, nothing more arrives.
    await t.whenIdle();
    const arrivals = new Map<string, number>();
    for (const request of receiver.requests.filter((r) => r.path.startsWith('/pair-'))) {
      const id = String(request.headers['x-service-delivery']);
      arrivals.set(id, (arrivals.get(id) ?? 0) + 1);
    }
    expect(new Set(arrivals.keys())).toEqual(new Set(queued));
    // Each delivery was attempted once and arrived once: two dispatchers holding it at once would send
    // it twice with one recorded attempt (the second record is refused for its lease).
    expect(rows.filter((row) => row.attempts !== 1)).toEqual([]);
    expect([...arrivals].filter(([, n]) => n > 1)).toEqual([]);
  });
});

describeEachDialect('one slow receiver does not starve the others', (dialect) => {
  const slow = useReceiver();
  const fast = useReceiver();
  const t = useWebhookApp(dialect, { timeoutMs: 5000, maxConcurrency: 6, perHostConcurrency: 3 });

  it('serves a fast receiver while a slow one holds its share of the slots (per-host limit)', async () => {
    slow.reply = { status: 200, delayMs: 1000 };
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

describeEachDialect('a slow host claimed in one batch', (dialect) => {
  const slow = useReceiver();
  const fast = useReceiver();
  const t = useWebhookApp(dialect, {
    timeoutMs: 5000,
    maxConcurrency: 6,
    perHostConcurrency: 3,
    startDispatcher: false,
  });

  it('does not take every slot when the first claim finds only its deliveries', async () => {
    // Longer than the fast host is given below: a fast delivery that waits for a slow attempt fails.
    slow.reply = { status: 200, delayMs: 4000 };
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
