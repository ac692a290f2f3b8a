import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/database.js';
import { waitUntil } from '../support/wait.js';
import { buildWebhookApp, recentDeliveries, type WebhookApp } from '../support/webhook-app.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { ManualClock } from './task-fixtures.js';

const API = '/api/ext/v1';
const TIMEOUT_MS = 5000;
/** Past the dispatcher's lease (2 × time-out + the recording margin). */
const PAST_THE_LEASE = 2 * TIMEOUT_MS + 10_000 + 1;

/**
 * A delivery that waits in its host's queue while the attempt before it hangs can outlive its lease.
 * These tests hold one attempt (the receiver stalls it), let the clock pass the lease, and check that
 * the waiting delivery is then neither sent twice nor left unrecorded.
 */
describe.each(DIALECTS)('webhook leases of deliveries waiting for a slot ($dialect)', ({ dialect, skip }) => {
  let t: WebhookApp;
  let receiver: WebhookReceiver;
  let clock: ManualClock;
  let key: string;

  beforeEach(async () => {
    if (skip) return;
    receiver = await WebhookReceiver.start();
    clock = new ManualClock(Date.parse('2026-11-21T10:00:00.000Z'));
    // Two attempts at a time per host, so a third delivery waits for a slot (one waiting is not yet a
    // backlog, so the host's webhook is not left out of claims).
    t = await buildWebhookApp(dialect, { clock, timeoutMs: TIMEOUT_MS, perHostConcurrency: 2 });
    key = (await t.createKey('all')).key;
  });
  afterEach(async () => {
    receiver?.releaseStalled();
    await t?.close();
    await receiver?.close();
  });

  /**
   * Three pings to one webhook: the first two attempts hang (released by the test well within the
   * time-out, in real time), the third waits for a slot.
   */
  async function twoHangingOneWaiting() {
    let stalls = 2;
    receiver.reply = () => (stalls-- > 0 ? { stall: true } : { status: 204 });
    const hook = await t.createWebhook(key, receiver.url('/lease'));
    await t.request(key, 'PATCH', `${API}/webhooks/${hook.id}`, { active: false });
    const ping = async () =>
      (await t.request(key, 'POST', `${API}/webhooks/${hook.id}/ping`)).json().data.delivery_id as string;
    const hanging = [await ping(), await ping()];
    const waiting = await ping();
    // Claimed together, in this order (paused while queued so one claim takes all three).
    await t.request(key, 'PATCH', `${API}/webhooks/${hook.id}`, { active: true });
    t.dispatcher.wake();
    await receiver.waitFor(2, (r) => r.path === '/lease');
    return { hookId: hook.id, hanging, waiting };
  }

  const sent = (deliveryId: string) =>
    receiver.requests.filter((r) => r.headers['x-service-delivery'] === deliveryId).length;

  describe.skipIf(skip)('', () => {
    it('does not send a waiting delivery that another instance took over once its lease ran out', async () => {
      const { hookId, hanging, waiting } = await twoHangingOneWaiting();
      clock.advance(PAST_THE_LEASE);
      // Another instance claims the expired delivery (and sends it).
      await t.db.database.kysely
        .updateTable('webhook_deliveries')
        .set({ lease_owner: 'other-instance:1', lease_until: clock.now() + 60_000 })
        .where('id', '=', waiting)
        .execute();
      receiver.releaseStalled();
      await waitUntil('the hanging attempts to be recorded', async () => {
        const rows = await recentDeliveries(t, key, hookId);
        const done = rows.filter((d) => hanging.includes(d.id as string) && d.status === 'delivered');
        return done.length === 2 ? done : undefined;
      });
      // This dispatcher has finished with the delivery it had waiting (and must not have sent it).
      await t.whenIdle();
      expect(sent(waiting)).toBe(0);
      const row = await t.db.database.kysely
        .selectFrom('webhook_deliveries')
        .select(['status', 'attempts', 'lease_owner'])
        .where('id', '=', waiting)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ status: 'pending', attempts: 0, lease_owner: 'other-instance:1' });
    });

    it('sends and records once a waiting delivery whose lease ran out and that it claimed again itself', async () => {
      const { hookId, hanging, waiting } = await twoHangingOneWaiting();
      clock.advance(PAST_THE_LEASE);
      // The poll claims both again (their leases ran out); this instance still holds them.
      t.dispatcher.wake();
      await waitUntil('the deliveries to be claimed again', async () => {
        const rows = await t.db.database.kysely
          .selectFrom('webhook_deliveries')
          .select('lease_until')
          .where('id', 'in', [...hanging, waiting])
          .execute();
        return rows.every((r) => (r.lease_until ?? 0) > clock.now()) ? rows : undefined;
      });
      receiver.releaseStalled();
      const delivered = await waitUntil('both deliveries to be recorded', async () => {
        const rows = await recentDeliveries(t, key, hookId);
        return rows.every((d) => d.status === 'delivered') && rows.length === 3 ? rows : undefined;
      });
      expect(delivered.map((d) => d.attempts)).toEqual([1, 1, 1]);
      await t.whenIdle();
      expect([...hanging, waiting].map(sent)).toEqual([1, 1, 1]);
    });

    it('renews the lease of a delivery that waited long, then sends it once', async () => {
      const { hookId, waiting } = await twoHangingOneWaiting();
      // Not yet past the lease, but too close to it for a whole attempt.
      clock.advance(PAST_THE_LEASE - TIMEOUT_MS);
      receiver.releaseStalled();
      await waitUntil('both deliveries to be recorded', async () => {
        const rows = await recentDeliveries(t, key, hookId);
        return rows.every((d) => d.status === 'delivered') && rows.length === 3 ? rows : undefined;
      });
      expect(sent(waiting)).toBe(1);
    });
  });
});
