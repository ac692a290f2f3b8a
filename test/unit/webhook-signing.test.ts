import type { AddressInfo } from 'node:net';
import { verify as verifyGithubStyle } from '@octokit/webhooks-methods';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
// The receiver example from docs/webhooks.md, tested so the documentation stays true.
import {
  createReceiver,
  verifyDelivery,
  verifyServiceSignature,
  verifyStandardSignature,
} from '../../docs/examples/webhook-receiver.mjs';
import { maxAttempts, outcomeOfAttempt } from '../../src/webhooks/retry-schedule.js';
import { newWebhookSecret, signDelivery } from '../../src/webhooks/signing.js';

const body = JSON.stringify({ id: 'evt_1', type: 'ping', timestamp: '2026-11-21T10:00:00.000Z', data: {} });

describe('delivery signatures', () => {
  it('secrets are whsec_ + base64 of 32 random bytes', () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(a);
  });

  it('verify with @octokit/webhooks-methods and standardwebhooks', async () => {
    const secret = newWebhookSecret();
    const now = Math.floor(Date.now() / 1000);
    const headers = signDelivery(secret, 'dlv_1', now, body);
    expect(headers['webhook-id']).toBe('dlv_1');
    expect(headers['webhook-timestamp']).toBe(String(now));
    expect(await verifyGithubStyle(secret, body, headers['x-service-signature-256'])).toBe(true);
    expect(await verifyGithubStyle(secret, `${body} `, headers['x-service-signature-256'])).toBe(false);
    expect(new StandardWebhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(() => new StandardWebhook(newWebhookSecret()).verify(body, { ...headers })).toThrow();
    const replayed = signDelivery(secret, 'dlv_1', now - 3600, body);
    expect(() => new StandardWebhook(secret).verify(body, { ...replayed })).toThrow();
  });

  it('the documented example verifies genuine deliveries and rejects forged, re-keyed and stale ones', () => {
    const secret = newWebhookSecret();
    const now = 1_800_000_000;
    const headers = { 'x-service-delivery': 'dlv_2', ...signDelivery(secret, 'dlv_2', now, body) };
    expect(verifyDelivery(secret, body, headers, now)).toEqual(JSON.parse(body));
    expect(verifyDelivery(secret, body.replace('ping', 'pong'), headers, now)).toBeNull();
    expect(verifyDelivery(newWebhookSecret(), body, headers, now)).toBeNull();
    expect(verifyDelivery(secret, body, headers, now + 301)).toBeNull();
    expect(verifyServiceSignature(secret, body, undefined)).toBe(false);
    expect(verifyStandardSignature(secret, body, { ...headers, 'webhook-id': 'dlv_other' }, now)).toBe(false);
    // Several signatures (e.g. during a key change on the sender's side) are accepted if one matches.
    const multi = { ...headers, 'webhook-signature': `v1,bm9wZQ== ${headers['webhook-signature']}` };
    expect(verifyStandardSignature(secret, body, multi, now)).toBe(true);
  });

  it('the documented receiver answers 204 once per delivery id and 401 to bad signatures', async () => {
    const secret = newWebhookSecret();
    const handled: unknown[] = [];
    const server = createReceiver(secret, (event: unknown) => handled.push(event));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      const headers = {
        'content-type': 'application/json',
        'x-service-delivery': 'dlv_3',
        ...signDelivery(secret, 'dlv_3', Math.floor(Date.now() / 1000), body),
      };
      expect((await fetch(url, { method: 'POST', headers, body })).status).toBe(204);
      expect((await fetch(url, { method: 'POST', headers, body })).status).toBe(204);
      expect(handled).toHaveLength(1);
      expect((await fetch(url, { method: 'POST', headers, body: `${body}\n` })).status).toBe(401);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('retry schedule', () => {
  const delays = [60_000, 300_000, 1_800_000, 7_200_000];
  it('waits 1m, 5m, 30m, 2h and fails after the 5th attempt', () => {
    expect(maxAttempts(delays)).toBe(5);
    expect(outcomeOfAttempt(false, 1, delays, 0)).toEqual({ status: 'pending', nextAttemptAt: 60_000 });
    expect(outcomeOfAttempt(false, 2, delays, 0)).toEqual({ status: 'pending', nextAttemptAt: 300_000 });
    expect(outcomeOfAttempt(false, 3, delays, 0)).toEqual({ status: 'pending', nextAttemptAt: 1_800_000 });
    expect(outcomeOfAttempt(false, 4, delays, 10)).toEqual({ status: 'pending', nextAttemptAt: 7_200_010 });
    expect(outcomeOfAttempt(false, 5, delays, 0)).toEqual({ status: 'failed' });
    expect(outcomeOfAttempt(true, 5, delays, 0)).toEqual({ status: 'delivered' });
    expect(outcomeOfAttempt(false, 1, [], 0)).toEqual({ status: 'failed' });
  });
});
