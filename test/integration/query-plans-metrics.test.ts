import { expect, it } from 'vitest';
import { deliveryQueueState, webhookCounts } from '../../src/db/repositories/delivery-metrics.js';
import { describeEachDialect } from '../support/dialects.js';
import { DELIVERIES, NOW, seedDeliveries, useQueryPlans } from './query-plans-fixture.js';

/*
 * What GET /metrics reads at every scrape (src/metrics/outbox-gauges.ts): the pending range of the due
 * index, never the delivery history (see query-plans-fixture.ts).
 */
describeEachDialect('query plans of the metrics queries', (dialect) => {
  const q = useQueryPlans(dialect, seedDeliveries);

  it('the outbox state reads only the pending range of the due index', async () => {
    // Every 100th seeded delivery is pending, due a millisecond after the one before, from NOW on.
    const plan = await q.plansOf(async (db) => {
      const state = await deliveryQueueState(db, Date.parse(NOW) + DELIVERIES);
      expect(state).toEqual({ pending: DELIVERIES / 100, oldestDueAt: Date.parse(NOW), failingWebhooks: 0 });
      // Before anything is due: the pending ones (all wh_0's, each attempted once) wait for a retry.
      const early = await deliveryQueueState(db, Date.parse(NOW) - 1);
      expect(early).toEqual({ pending: DELIVERIES / 100, oldestDueAt: null, failingWebhooks: 1 });
    });
    q.expectIndexed(plan, /deliveries_due_idx/);
    expect(plan).not.toMatch(/deliveries_(webhook|finished)_idx/);
  });

  it('the webhook counts read the webhooks table, never the deliveries', async () => {
    const plan = await q.plansOf(async (db) => {
      expect(await webhookCounts(db)).toEqual({ active: 20, paused: 0 });
    });
    expect(plan).not.toMatch(/webhook_deliveries/);
  });
});
