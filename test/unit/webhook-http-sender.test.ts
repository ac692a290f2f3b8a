import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESPONSE_KEEP_BYTES, WebhookSender } from '../../src/webhooks/http-sender.js';

describe('the webhook sender', () => {
  let server: http.Server;
  let base: string;
  // Answers must arrive within a sender's time-out, so the senders that wait for one are patient (a busy
  // machine); only the one that must give up on a receiver that never answers is quick.
  const patient = new WebhookSender({ timeoutMs: 60_000, allowPrivate: true, connectionsPerOrigin: 4 });
  const stalled = new WebhookSender({ timeoutMs: 3_000, allowPrivate: true, connectionsPerOrigin: 4 });
  const quick = new WebhookSender({ timeoutMs: 300, allowPrivate: true, connectionsPerOrigin: 4 });

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (req.url === '/long') res.writeHead(200).end('é'.repeat(100_000));
        else if (req.url === '/stall-body') {
          res.writeHead(201);
          res.write('partial');
        } else if (req.url === '/stall') {
          // Never answers.
        } else res.writeHead(404).end('not here');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const sender of [patient, stalled, quick]) await sender.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const send = (path: string, sender = patient) =>
    sender.send(`${base}${path}`, { 'content-type': 'application/json' }, '{}');

  it('keeps the first KB of a long response (whole characters only) and cuts the rest off', async () => {
    const result = await send('/long');
    expect(result).toMatchObject({ ok: true, status: 200, error: null });
    expect(Buffer.byteLength(result.body ?? '')).toBe(RESPONSE_KEEP_BYTES);
    expect(result.body).toBe('é'.repeat(RESPONSE_KEEP_BYTES / 2));
  });

  it('judges an attempt by its status when the body stalls, keeping what arrived', async () => {
    // The status and the first bytes arrive, then the body stalls until the time-out cuts it off.
    expect(await send('/stall-body', stalled)).toMatchObject({
      ok: true,
      status: 201,
      body: 'partial',
      error: null,
    });
  });

  it('names the time-out when no response arrives', async () => {
    expect(await send('/stall', quick)).toMatchObject({
      ok: false,
      status: null,
      body: null,
      error: 'No response within 300 ms.',
    });
  });

  it('records a non-2xx status with its body, and an unreachable receiver with the error', async () => {
    expect(await send('/missing')).toMatchObject({
      ok: false,
      status: 404,
      body: 'not here',
      error: 'Receiver answered HTTP 404.',
    });
    const refused = await patient.send('http://127.0.0.1:1/', {}, '{}');
    expect(refused).toMatchObject({ ok: false, status: null, body: null });
    expect(refused.error).toContain('ECONNREFUSED');
  });
});
