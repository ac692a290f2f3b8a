import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/database.js';
import { buildWebhookApp, settled, type WebhookApp } from '../support/webhook-app.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const API = '/api/ext/v1';

describe.each(DIALECTS)('webhook delivery address checks at connect time ($dialect)', ({ dialect, skip }) => {
  let t: WebhookApp;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    if (skip) return;
    receiver = await WebhookReceiver.start();
    t = await buildWebhookApp(dialect, {
      allowPrivate: false,
      allowHttp: true,
      retryDelaysMs: [60_000],
      // At creation the name looks public; when connecting it answers loopback (DNS rebinding).
      urlResolve: async () => ['93.184.215.14'],
      connectResolve: async () => ['127.0.0.1'],
    });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  describe.skipIf(skip)('', () => {
    it('refuses to connect when the name resolves to loopback at delivery time', async () => {
      const { key } = await t.createKey('all');
      const hook = await t.createWebhook(key, `http://rebind.example.com:${receiver.port}/hook`);
      await t.request(key, 'POST', `${API}/webhooks/${hook.id}/ping`);
      const attempted = await settled(t, key, hook.id, (d) => d.attempts === 1);
      expect(attempted).toMatchObject({ status: 'pending', response_status: null });
      expect(attempted.error).toContain('Blocked: rebind.example.com resolves to a non-public address.');
      expect(attempted.error).not.toContain('127.0.0.1');
      expect(receiver.requests).toEqual([]);
    });

    it('refuses an IP-literal URL that points at a private address (e.g. stored before a policy change)', async () => {
      const { key } = await t.createKey('all');
      const hook = await t.createWebhook(key, 'http://93.184.215.14/hook');
      await t.db.database.kysely
        .updateTable('webhooks')
        .set({ url: `http://127.0.0.1:${receiver.port}/hook` })
        .where('id', '=', hook.id)
        .execute();
      await t.request(key, 'POST', `${API}/webhooks/${hook.id}/ping`);
      const attempted = await settled(t, key, hook.id, (d) => d.attempts === 1);
      expect(attempted.error).toContain('Blocked: 127.0.0.1 is a loopback address');
      expect(receiver.requests).toEqual([]);
    });
  });
});
