import { expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES as EVENT_TYPES } from '../../src/domain/activities/activity-types.js';
import { describeEachDialect } from '../support/dialects.js';
import { QUEUE_ONLY, useWebhookApp } from '../support/webhook-app.js';

const API = '/api/ext/v1';
const TARGET = 'https://hooks.example.com/laneboard';

describeEachDialect('webhook management', (dialect) => {
  // No dispatcher: these tests look at what is queued, not at what is sent.
  const t = useWebhookApp(dialect, QUEUE_ONLY);

  it('creates a webhook with a whsec_ secret shown once, lists and shows it without the secret', async () => {
    const { key } = await t.createKey('all');
    const res = await t.request(key, 'POST', `${API}/webhooks`, {
      url: TARGET,
      events: ['task.created', 'lane.updated'],
    });
    expect(res.statusCode).toBe(201);
    const created = res.json().data;
    expect(created).toEqual({
      id: expect.stringMatching(/^wh_/),
      url: TARGET,
      events: ['task.created', 'lane.updated'],
      active: true,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(32);

    const list = await t.request(key, 'GET', `${API}/webhooks`);
    expect(list.statusCode).toBe(200);
    const { secret: _secret, ...withoutSecret } = created;
    expect(list.json()).toEqual({ data: [withoutSecret] });

    const detail = await t.request(key, 'GET', `${API}/webhooks/${created.id}`);
    expect(detail.json()).toEqual({ data: { ...withoutSecret, recent_deliveries: [] } });
    expect(detail.body).not.toContain(created.secret);
  });

  it('stores the secret encrypted, not in plain text', async () => {
    const { key } = await t.createKey('all');
    const created = await t.createWebhook(key, TARGET);
    const row = await t.db.database.kysely
      .selectFrom('webhooks')
      .select('secret_sealed')
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(row.secret_sealed).not.toContain(created.secret.slice(6, 20));
    expect(row.secret_sealed.startsWith('v1.')).toBe(true);
  });

  it('accepts every known event type, or exactly ["*"], and rejects anything else naming `events`', async () => {
    const { key } = await t.createKey('all');
    const all = await t.request(key, 'POST', `${API}/webhooks`, { url: TARGET, events: [...EVENT_TYPES] });
    expect(all.statusCode).toBe(201);
    const dupes = await t.request(key, 'POST', `${API}/webhooks`, {
      url: TARGET,
      events: ['task.created', 'task.created'],
    });
    expect(dupes.json().data.events).toEqual(['task.created']);

    for (const events of [
      [],
      ['*', 'task.created'],
      ['task.exploded'],
      ['ping'],
      [''],
      'task.created',
      [1],
    ]) {
      const res = await t.request(key, 'POST', `${API}/webhooks`, { url: TARGET, events });
      expect(res.statusCode, JSON.stringify(events)).toBe(400);
      expect(res.json().error.code).toBe('validation_error');
      expect(res.json().error.message).toContain('events');
    }
  });

  it('rejects a missing url, unknown fields and a non-URL with validation_error naming the field', async () => {
    const { key } = await t.createKey('all');
    const cases: Array<[unknown, string]> = [
      [{ events: ['*'] }, 'url'],
      [{ url: TARGET }, 'events'],
      [{ url: TARGET, events: ['*'], secret: 'mine' }, 'secret'],
      [{ url: 'not a url', events: ['*'] }, 'url'],
      [{ url: '/relative/path', events: ['*'] }, 'url'],
    ];
    for (const [body, field] of cases) {
      const res = await t.request(key, 'POST', `${API}/webhooks`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'validation_error' });
      expect(res.json().error.message).toContain(field);
    }
  });

  it('PATCHes url, events and active and returns the webhook', async () => {
    const { key } = await t.createKey('all');
    const created = await t.createWebhook(key, TARGET, ['task.created']);
    const res = await t.request(key, 'PATCH', `${API}/webhooks/${created.id}`, {
      url: 'https://other.example.com/in',
      events: ['*'],
      active: false,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      id: created.id,
      url: 'https://other.example.com/in',
      events: ['*'],
      active: false,
      createdAt: expect.any(String),
    });
    const resumed = await t.request(key, 'PATCH', `${API}/webhooks/${created.id}`, { active: true });
    expect(resumed.json().data).toMatchObject({ active: true, events: ['*'] });

    const bad = await t.request(key, 'PATCH', `${API}/webhooks/${created.id}`, { events: [] });
    expect(bad.statusCode).toBe(400);
    const badUrl = await t.request(key, 'PATCH', `${API}/webhooks/${created.id}`, {
      url: 'http://127.0.0.1/',
    });
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.json().error.message).toContain('url');
    const unchanged = await t.request(key, 'GET', `${API}/webhooks/${created.id}`);
    expect(unchanged.json().data).toMatchObject({ url: 'https://other.example.com/in', events: ['*'] });
  });

  it("hides another key's webhooks: 404 for every operation, and not listed", async () => {
    const owner = await t.createKey('all');
    const other = await t.createKey('all');
    const created = await t.createWebhook(owner.key, TARGET);
    const base = `${API}/webhooks/${created.id}`;
    const ping = await t.request(owner.key, 'POST', `${base}/ping`);
    const deliveryId = ping.json().data.delivery_id;
    const attempts: Array<[string, string, unknown?]> = [
      ['GET', base],
      ['PATCH', base, { active: false }],
      ['DELETE', base],
      ['POST', `${base}/ping`],
      ['POST', `${base}/rotate-secret`],
      ['POST', `${base}/deliveries/${deliveryId}/redeliver`],
    ];
    for (const [method, url, body] of attempts) {
      const res = await t.request(other.key, method as 'GET', url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
    const list = await t.request(other.key, 'GET', `${API}/webhooks`);
    expect(list.json().data).toEqual([]);
    const still = await t.request(owner.key, 'GET', base);
    expect(still.json().data.active).toBe(true);
  });

  it('answers 404 for unknown webhook and delivery ids, and 401 without a key', async () => {
    const { key } = await t.createKey('all');
    const missing = await t.request(key, 'GET', `${API}/webhooks/wh_missing`);
    expect(missing.statusCode).toBe(404);
    const created = await t.createWebhook(key, TARGET);
    const res = await t.request(
      key,
      'POST',
      `${API}/webhooks/${created.id}/deliveries/dlv_missing/redeliver`,
    );
    expect(res.statusCode).toBe(404);
    const anonymous = await t.app.inject({ method: 'GET', url: `${API}/webhooks` });
    expect(anonymous.statusCode).toBe(401);
  });
});
