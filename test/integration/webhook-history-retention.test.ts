import { beforeAll, expect, it } from 'vitest';
import { WebhookHistoryRetention } from '../../src/webhooks/webhook-history-retention.js';
import { describeEachDialect, useTestDatabase } from '../support/dialects.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-21T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

describeEachDialect('webhook history retention', (dialect) => {
  async function seedHistory(): Promise<void> {
    const db = t.database.kysely;
    await db
      .insertInto('api_keys')
      .values({ id: 'key_1', name: 'k', key_hash: 'h', key_sealed: 's', all_boards: 1, created_at: iso(NOW) })
      .execute();
    await db
      .insertInto('webhooks')
      .values({
        id: 'wh_1',
        api_key_id: 'key_1',
        url: 'https://example.com/',
        events: '["*"]',
        active: 1,
        secret_sealed: 's',
        created_at: iso(NOW),
        updated_at: iso(NOW),
      })
      .execute();
    const rows: Array<[string, number, 'pending' | 'delivered' | 'failed']> = [
      ['old_delivered', NOW - 40 * DAY, 'delivered'],
      ['old_failed', NOW - 31 * DAY, 'failed'],
      ['old_pending', NOW - 45 * DAY, 'pending'],
      ['recent_delivered', NOW - 2 * DAY, 'delivered'],
    ];
    for (const [name, at, status] of rows) {
      await db
        .insertInto('webhook_events')
        .values({
          id: `evt_${name}`,
          type: 'task.created',
          board_id: 'brd_1',
          payload: '{}',
          created_at: iso(at),
        })
        .execute();
      await db
        .insertInto('webhook_deliveries')
        .values({
          id: `dlv_${name}`,
          webhook_id: 'wh_1',
          event_id: `evt_${name}`,
          status,
          attempts: 1,
          next_attempt_at: at,
          created_at: iso(at),
        })
        .execute();
    }
  }

  const t = useTestDatabase(dialect);
  beforeAll(async () => {
    await seedHistory();
  });

  it('deletes finished deliveries past retention and their events, never pending ones or recent history', async () => {
    const retention = new WebhookHistoryRetention({
      database: t.database,
      retentionMs: 30 * DAY,
      clock: { now: () => NOW },
    });
    expect(await retention.pruneOnce()).toEqual({ deliveries: 2, events: 2 });

    const db = t.database.kysely;
    const deliveries = await db.selectFrom('webhook_deliveries').select('id').orderBy('id').execute();
    expect(deliveries.map((d) => d.id)).toEqual(['dlv_old_pending', 'dlv_recent_delivered']);
    const events = await db.selectFrom('webhook_events').select('id').orderBy('id').execute();
    expect(events.map((e) => e.id)).toEqual(['evt_old_pending', 'evt_recent_delivered']);

    // Nothing more to do on a second pass.
    expect(await retention.pruneOnce()).toEqual({ deliveries: 0, events: 0 });
  });
});
