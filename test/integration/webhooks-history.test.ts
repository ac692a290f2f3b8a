import { expect, it } from 'vitest';
import { deliveriesOf, lastDeliveries } from '../../src/db/repositories/settings-console.js';
import { ManualClock } from '../support/clock.js';
import { describeEachDialect } from '../support/dialects.js';
import { QUEUE_ONLY, useWebhookApp } from '../support/webhook-app.js';

const API = '/api/ext/v1';
const TARGET = 'https://hooks.example.com/laneboard';

describeEachDialect('webhook deliveries: ping, redeliver, history, secret, deletion', (dialect) => {
  // No dispatcher: these tests look at what is queued, not at what is sent.
  // Time moves by hand: deliveries made one after another get distinct created_at values.
  const clock = new ManualClock();
  const t = useWebhookApp(dialect, { ...QUEUE_ONLY, clock });

  it('ping queues a ping to that webhook only, whatever its filter; redeliver queues the same event again', async () => {
    const { key } = await t.createKey('all');
    const narrow = await t.createWebhook(key, TARGET, ['todo.deleted']);
    const bystander = await t.createWebhook(key, TARGET, ['*']);
    const ping = await t.request(key, 'POST', `${API}/webhooks/${narrow.id}/ping`);
    expect(ping.statusCode).toBe(202);
    const deliveryId = ping.json().data.delivery_id;
    expect(deliveryId).toMatch(/^dlv_/);

    const detail = (await t.request(key, 'GET', `${API}/webhooks/${narrow.id}`)).json().data;
    expect(detail.recent_deliveries).toEqual([
      {
        id: deliveryId,
        event_id: expect.stringMatching(/^evt_/),
        event_type: 'ping',
        status: 'pending',
        attempts: 0,
        response_status: null,
        response_body: null,
        duration_ms: null,
        error: null,
        created_at: expect.any(String),
        last_attempt_at: null,
        next_attempt_at: expect.any(String),
      },
    ]);
    const other = (await t.request(key, 'GET', `${API}/webhooks/${bystander.id}`)).json().data;
    expect(other.recent_deliveries).toEqual([]);

    const again = await t.request(
      key,
      'POST',
      `${API}/webhooks/${narrow.id}/deliveries/${deliveryId}/redeliver`,
    );
    expect(again.statusCode).toBe(202);
    const newId = again.json().data.delivery_id;
    expect(newId).not.toBe(deliveryId);
    const after = (await t.request(key, 'GET', `${API}/webhooks/${narrow.id}`)).json().data.recent_deliveries;
    expect(after.map((d: { id: string }) => d.id)).toEqual([newId, deliveryId]);
    expect(after[0].event_id).toBe(after[1].event_id);
  });

  it('shows the newest 25 deliveries, newest first', async () => {
    const { key } = await t.createKey('all');
    const hook = await t.createWebhook(key, TARGET);
    const ids: string[] = [];
    for (let i = 0; i < 27; i++) {
      ids.push((await t.request(key, 'POST', `${API}/webhooks/${hook.id}/ping`)).json().data.delivery_id);
      // created_at has millisecond resolution; keep the order unambiguous.
      clock.advance(2);
    }
    const detail = (await t.request(key, 'GET', `${API}/webhooks/${hook.id}`)).json().data;
    expect(detail.recent_deliveries.map((d: { id: string }) => d.id)).toEqual(ids.slice(2).reverse());
  });

  it('lists pending and finished deliveries together, newest first, in the API and the settings console', async () => {
    const { key } = await t.createKey('all');
    const hook = await t.createWebhook(key, TARGET);
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      ids.push((await t.request(key, 'POST', `${API}/webhooks/${hook.id}/ping`)).json().data.delivery_id);
      clock.advance(2);
    }
    // As the dispatcher leaves them: the 6 oldest still pending (retrying), then a mix, the newest pending.
    const statusOf = (i: number) =>
      i < 6 || i % 4 === 1 || i === 29 ? 'pending' : i % 4 === 3 ? 'failed' : 'delivered';
    const db = t.db.database.kysely;
    for (const status of ['delivered', 'failed'] as const) {
      const finished = ids.filter((_, i) => statusOf(i) === status);
      await db
        .updateTable('webhook_deliveries')
        .set({ status, attempts: 1, last_attempt_at: new Date().toISOString() })
        .where('id', 'in', finished)
        .execute();
    }
    const newestFirst = ids.map((id, i) => ({ id, status: statusOf(i) })).reverse();

    const detail = (await t.request(key, 'GET', `${API}/webhooks/${hook.id}`)).json().data;
    expect(detail.recent_deliveries.map((d: { id: string; status: string }) => [d.id, d.status])).toEqual(
      newestFirst.slice(0, 25).map((d) => [d.id, d.status]),
    );

    const listed = async (status: 'pending' | 'delivered' | 'failed' | null, limit: number) =>
      (await deliveriesOf(db, hook.id, status, limit)).map((d) => d.id);
    expect(await listed(null, 50)).toEqual(newestFirst.map((d) => d.id));
    expect(await listed(null, 7)).toEqual(newestFirst.slice(0, 7).map((d) => d.id));
    for (const status of ['pending', 'delivered', 'failed'] as const) {
      const expected = newestFirst.filter((d) => d.status === status).map((d) => d.id);
      expect(expected.length).toBeGreaterThan(3);
      expect(await listed(status, 50)).toEqual(expected);
      expect(await listed(status, 3)).toEqual(expected.slice(0, 3));
    }

    // The newest delivery of each webhook, whether pending (this one) or finished (a second webhook's).
    const other = await t.createWebhook(key, TARGET);
    const older = (await t.request(key, 'POST', `${API}/webhooks/${other.id}/ping`)).json().data.delivery_id;
    clock.advance(2);
    const newer = (await t.request(key, 'POST', `${API}/webhooks/${other.id}/ping`)).json().data.delivery_id;
    await db.updateTable('webhook_deliveries').set({ status: 'delivered' }).where('id', '=', newer).execute();
    const last = await lastDeliveries(db, [hook.id, other.id]);
    expect(last.get(hook.id)).toMatchObject({ id: ids[29], status: 'pending', event_type: 'ping' });
    expect(last.get(other.id)).toMatchObject({ id: newer, status: 'delivered', event_type: 'ping' });
    expect(older).not.toBe(newer);
  });

  it('rotates the secret: a new whsec_ value, returned once', async () => {
    const { key } = await t.createKey('all');
    const hook = await t.createWebhook(key, TARGET);
    const res = await t.request(key, 'POST', `${API}/webhooks/${hook.id}/rotate-secret`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { secret: expect.stringMatching(/^whsec_/) } });
    expect(res.json().data.secret).not.toBe(hook.secret);
  });

  it('deletes a webhook with its deliveries and their events (204)', async () => {
    const { key } = await t.createKey('all');
    const hook = await t.createWebhook(key, TARGET);
    const kept = await t.createWebhook(key, TARGET);
    const board = await t.createBoard(key);
    await t.request(key, 'POST', `${API}/webhooks/${hook.id}/ping`);
    const db = t.db.database.kysely;
    // One of its deliveries finished: pending and finished ones are indexed apart (migration 012).
    const delivered = (await t.request(key, 'POST', `${API}/webhooks/${hook.id}/ping`)).json().data
      .delivery_id;
    await db
      .updateTable('webhook_deliveries')
      .set({ status: 'delivered' })
      .where('id', '=', delivered)
      .execute();
    const pingEvents = (
      await db.selectFrom('webhook_deliveries').select('event_id').where('webhook_id', '=', hook.id).execute()
    ).map((r) => r.event_id);
    expect(pingEvents).toHaveLength(3);
    const del = await t.request(key, 'DELETE', `${API}/webhooks/${hook.id}`);
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    expect((await t.request(key, 'GET', `${API}/webhooks/${hook.id}`)).statusCode).toBe(404);
    const left = await db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('webhook_id', '=', hook.id)
      .execute();
    expect(left).toEqual([]);
    // The board.created event is still wanted by the other webhook; the ping event is gone.
    const events = await db
      .selectFrom('webhook_events')
      .select(['type', 'board_id'])
      .where('board_id', '=', board)
      .execute();
    expect(events).toEqual([{ type: 'board.created', board_id: board }]);
    const pingsLeft = await db
      .selectFrom('webhook_events')
      .select('id')
      .where('id', 'in', pingEvents)
      .where('type', '=', 'ping')
      .execute();
    expect(pingsLeft).toEqual([]);
    const keptDeliveries = await db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('webhook_id', '=', kept.id)
      .execute();
    expect(keptDeliveries).toHaveLength(1);
  });

  it('revoking the key removes its webhooks, their pending deliveries and history', async () => {
    const { id: keyId, key } = await t.createKey('all');
    const hook = await t.createWebhook(key, TARGET);
    await t.createBoard(key);
    await t.request(key, 'POST', `${API}/webhooks/${hook.id}/ping`);
    const db = t.db.database.kysely;
    const eventIds = (
      await db.selectFrom('webhook_deliveries').select('event_id').where('webhook_id', '=', hook.id).execute()
    ).map((r) => r.event_id);
    expect(eventIds).toHaveLength(2);

    await t.services.apiKeys.revokeApiKey({ kind: 'system', origin: 'cli', name: 'CLI' }, keyId);
    expect(await db.selectFrom('webhooks').select('id').where('id', '=', hook.id).execute()).toEqual([]);
    expect(
      await db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', hook.id).execute(),
    ).toEqual([]);
    // Events no other webhook still has a delivery of are gone (other keys' webhooks share board events).
    const orphans = await db
      .selectFrom('webhook_events as e')
      .select('e.id')
      .where('e.id', 'in', eventIds)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb.selectFrom('webhook_deliveries as d').select('d.id').whereRef('d.event_id', '=', 'e.id'),
          ),
        ),
      )
      .execute();
    expect(orphans).toEqual([]);
    const pingEvents = await db
      .selectFrom('webhook_events')
      .select('id')
      .where('type', '=', 'ping')
      .where('id', 'in', eventIds)
      .execute();
    expect(pingEvents).toEqual([]);
    expect((await t.request(key, 'GET', `${API}/webhooks`)).statusCode).toBe(401);
  });

  it('lets operators manage any key’s webhooks but not MCP agents or UI members', async () => {
    const { id: keyId, key } = await t.createKey('all');
    const operator = { kind: 'system', origin: 'cli', name: 'CLI' } as const;
    const created = await t.services.webhooks.createWebhook(operator, {
      url: TARGET,
      events: ['*'],
      apiKeyId: keyId,
    });
    const mine = (await t.request(key, 'GET', `${API}/webhooks`))
      .json()
      .data.map((w: { id: string }) => w.id);
    expect(mine).toContain(created.id);
    await expect(
      t.services.webhooks.createWebhook(operator, { url: TARGET, events: ['*'] }),
    ).rejects.toMatchObject({
      code: 'validation_error',
    });
    const member = { kind: 'user', origin: 'ui', userId: 'u1', name: 'Member', role: 'member' } as const;
    await expect(t.services.webhooks.listWebhooks(member)).rejects.toMatchObject({ code: 'forbidden' });
    const admin = { kind: 'user', origin: 'ui', userId: 'u2', name: 'Admin', role: 'admin' } as const;
    expect((await t.services.webhooks.getWebhook(admin, created.id)).id).toBe(created.id);
  });
});
