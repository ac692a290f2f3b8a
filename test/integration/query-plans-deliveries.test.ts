import { expect, it } from 'vitest';
import { listRecentDeliveries } from '../../src/db/repositories/deliveries.js';
import { recordAttempts } from '../../src/db/repositories/delivery-attempt-results.js';
import { claimDueDeliveries } from '../../src/db/repositories/delivery-leases.js';
import { deliveriesOf, lastDeliveries } from '../../src/db/repositories/settings-console.js';
import { deleteFinishedDeliveriesBefore } from '../../src/db/repositories/webhook-history.js';
import { deleteWebhook } from '../../src/db/repositories/webhooks.js';
import { describeEachDialect } from '../support/dialects.js';
import { DELIVERIES, NOW, seedDeliveries, useQueryPlans } from './query-plans-fixture.js';

/* The webhook delivery queries: history, retention, deletion, claims and results (see query-plans-fixture.ts). */
describeEachDialect('query plans of the delivery queries', (dialect) => {
  const q = useQueryPlans(dialect, seedDeliveries);

  it("a webhook's newest deliveries: finished ones by the partial per-webhook index, pending ones by the due index", async () => {
    // wh_0's deliveries are every 20th; every 100th is pending, the rest delivered. Each was created a
    // millisecond after the one before, so newest first is by id, descending, whatever the status.
    const ofWh0 = Array.from({ length: DELIVERIES / 20 }, (_, k) => DELIVERIES - 20 - 20 * k).map((i) => ({
      id: `dlv_${String(i).padStart(6, '0')}`,
      status: i % 100 === 0 ? 'pending' : 'delivered',
    }));
    const ids = (rows: ReadonlyArray<{ id: string }>) => rows.map((r) => r.id);
    const both = await q.plansOf(async (db) => {
      const rows = await listRecentDeliveries(db, 'wh_0', 25);
      expect(rows.map((r) => [r.id, r.status])).toEqual(ofWh0.slice(0, 25).map((d) => [d.id, d.status]));
      expect(rows.filter((r) => r.status === 'pending')).toHaveLength(5);
      expect(rows[0]?.event_type).toBe('task.created');
    });
    q.expectIndexed(both, /deliveries_webhook_idx/);
    expect(both).toMatch(/deliveries_due_idx/);
    const pending = await q.plansOf(async (db) => {
      const rows = await deliveriesOf(db, 'wh_0', 'pending', 50);
      expect(ids(rows)).toEqual(ids(ofWh0.filter((d) => d.status === 'pending')).slice(0, 50));
    });
    q.expectIndexed(pending, /deliveries_due_idx/);
    const delivered = await q.plansOf(async (db) => {
      const rows = await deliveriesOf(db, 'wh_0', 'delivered', 50);
      expect(ids(rows)).toEqual(ids(ofWh0.filter((d) => d.status === 'delivered')).slice(0, 50));
    });
    q.expectIndexed(delivered, /deliveries_webhook_idx/);
    const last = await q.plansOf(async (db) => {
      const rows = await lastDeliveries(db, ['wh_0', 'wh_7']);
      expect(rows.get('wh_0')?.id).toBe(ofWh0[0]?.id);
      expect(rows.get('wh_7')?.id).toBe(`dlv_${String(DELIVERIES - 13).padStart(6, '0')}`);
    });
    q.expectIndexed(last, /deliveries_webhook_idx/);
  });

  it('retention finds old finished deliveries by the partial finished index', async () => {
    const retention = await q.plansOf(async (db) => {
      // Nothing was created before NOW: the plan is what matters, no row is deleted.
      expect(await deleteFinishedDeliveriesBefore(db, NOW, 500)).toBe(0);
    });
    q.expectIndexed(retention, /deliveries_finished_idx/);
  });

  it("deleting a webhook finds the events of its deliveries through indexes (not its row's cascade)", async () => {
    await q.db
      .insertInto('webhooks')
      .values({
        id: 'wh_doomed',
        api_key_id: 'key_1',
        url: 'https://example.com/hook',
        events: '["*"]',
        active: 1,
        secret_sealed: 'sealed',
        created_at: NOW,
        updated_at: NOW,
      })
      .execute();
    await q.db
      .insertInto('webhook_deliveries')
      .values(
        (['pending', 'delivered'] as const).map((status, i) => ({
          id: `dlv_doomed_${i}`,
          webhook_id: 'wh_doomed',
          event_id: `evt_${i}`,
          status,
          attempts: 1,
          next_attempt_at: Date.parse(NOW),
          created_at: NOW,
        })),
      )
      .execute();
    const plan = await q.plansOf(async (db) => {
      await deleteWebhook(db, 'wh_doomed');
    });
    const [events, webhookRow] = plan.split(
      /\n(?=Delete on webhooks|\d+ \d+ \d+ SEARCH webhooks USING INDEX)/,
    );
    // The statement deleting the events: each of the two reads of webhook_deliveries is indexed.
    expect(events).not.toMatch(/SCAN webhook_deliveries\s*$|Seq Scan on webhook_deliveries/m);
    expect(events).toMatch(/deliveries_webhook_idx/);
    expect(events).toMatch(/deliveries_due_idx/);
    // Deleting the webhook row cascades to its deliveries by webhook_id, which no index on all rows
    // serves any more: on SQLite this plan shows that scan (PostgreSQL's cascade runs in a trigger).
    expect(webhookRow).toMatch(dialect === 'sqlite' ? /SCAN webhook_deliveries/ : /Delete on webhooks/);
    expect(
      await q.db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('webhook_id', '=', 'wh_doomed')
        .execute(),
    ).toEqual([]);
  });

  it('the delivery claim finds due deliveries by the (status, next_attempt_at) index; results by id', async () => {
    const claim = await q.plansOf(async (db) => {
      const claimed = await claimDueDeliveries(db, dialect, {
        nowMs: Date.parse(NOW) + DELIVERIES,
        limit: 10,
        leaseUntil: Date.parse(NOW) + 60_000,
        leaseOwner: 'plan-test',
        excludeWebhookIds: ['wh_3'],
      });
      expect(claimed).toHaveLength(10);
    });
    q.expectIndexed(claim, /deliveries_due_idx/);
    const record = await q.plansOf(async (db) => {
      await recordAttempts(db, dialect, [
        {
          id: 'dlv_000000',
          leaseOwner: 'plan-test',
          record: {
            status: 'delivered',
            attempts: 1,
            next_attempt_at: 0,
            response_status: 204,
            response_body: null,
            duration_ms: 1,
            error: null,
            last_attempt_at: NOW,
          },
        },
      ]);
    });
    q.expectIndexed(
      record,
      dialect === 'sqlite' ? /USING INDEX sqlite_autoindex_webhook_deliveries_1/ : /webhook_deliveries_pkey/,
    );
  });

  it('a claim that leaves webhooks out looks through a bounded window of the due index; results by id', async () => {
    const window = await q.plansOf(async (db) => {
      await claimDueDeliveries(db, dialect, {
        nowMs: Date.parse(NOW) + DELIVERIES,
        limit: 10,
        leaseUntil: Date.parse(NOW) + 60_000,
        leaseOwner: 'plan-window',
        excludeWebhookIds: ['wh_3'],
        scanLimit: 100,
      });
    });
    q.expectIndexed(window, /deliveries_due_idx/);
    const claimed = await claimDueDeliveries(q.db, dialect, {
      nowMs: Date.parse(NOW) + DELIVERIES,
      limit: 5,
      leaseUntil: Date.parse(NOW) + 60_000,
      leaseOwner: 'plan-batch',
      excludeWebhookIds: [],
    });
    expect(claimed).toHaveLength(5);
    // One more, leased by another claimer: a result recorded under the wrong lease is not stored.
    const [takenOver] = await claimDueDeliveries(q.db, dialect, {
      nowMs: Date.parse(NOW) + DELIVERIES,
      limit: 1,
      leaseUntil: Date.parse(NOW) + 60_000,
      leaseOwner: 'plan-other',
      excludeWebhookIds: [],
    });
    if (!takenOver) throw new Error('nothing left to claim');
    const batch = await q.plansOf(async (db) => {
      const stored = await recordAttempts(
        db,
        dialect,
        [...claimed, takenOver].map(({ id }) => ({
          id,
          leaseOwner: 'plan-batch',
          record: {
            status: 'delivered' as const,
            attempts: 1,
            next_attempt_at: 0,
            response_status: 204,
            response_body: null,
            duration_ms: 1,
            error: null,
            last_attempt_at: NOW,
          },
        })),
      );
      expect(stored.sort()).toEqual(claimed.map(({ id }) => id).sort());
    });
    q.expectIndexed(
      batch,
      dialect === 'sqlite' ? /USING INDEX sqlite_autoindex_webhook_deliveries_1/ : /webhook_deliveries_pkey/,
    );
  });
});
