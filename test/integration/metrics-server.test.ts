import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_OPERATOR } from '../../src/domain/actor.js';
import type { Runtime } from '../../src/runtime.js';
import { ensureBuilt, freePort, ROOT, startServer, stopServer } from '../support/built-server.js';
import { exitOf, trackChild } from '../support/child-processes.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

// The built server's modules: the SQLite server's dispatcher thread runs dist/webhooks/dispatcher-worker.js.
const DIST = path.join(ROOT, 'dist');
type RuntimeModule = typeof import('../../src/runtime.js');
type ConfigModule = typeof import('../../src/config.js');
type AppModule = typeof import('../../src/app.js');
const TOKEN = 'metrics-token-0123456789';

/** One sample's value (exactly these labels) from a scrape's text. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels)
    .map(([label, value]) => `${label}="${value}"`)
    .sort()
    .join(',');
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match?.[1] === name && (match[2] ?? '').split(',').sort().join(',') === wanted)
      return Number(match[3]);
  }
  return undefined;
}

describe('metrics of the built server (SQLite)', () => {
  const dataDirs: string[] = [];
  const freshDataDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-metrics-'));
    dataDirs.push(dir);
    return dir;
  };
  beforeAll(() => ensureBuilt(), 180_000);
  afterAll(() => {
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a token under 16 characters stops the start with exit code 1, naming the variable only', async () => {
    const child = trackChild(
      spawn(process.execPath, [path.join(DIST, 'main.js')], {
        cwd: ROOT,
        env: {
          ...process.env,
          LANEBOARD_DATA_DIR: freshDataDir(),
          PORT: '0',
          LANEBOARD_METRICS_TOKEN: 'short-secret',
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      }),
    );
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    await exitOf(child);
    expect(child.exitCode).toBe(1);
    expect(stderr).toBe(
      'laneboard: invalid configuration: LANEBOARD_METRICS_TOKEN: must be at least 16 characters long\n',
    );
  }, 60_000);

  it('serves GET /metrics over HTTP with the token (401 without), counting /healthz', async () => {
    const server = await startServer({
      PORT: String(await freePort()),
      LANEBOARD_DATA_DIR: freshDataDir(),
      LANEBOARD_METRICS_TOKEN: TOKEN,
    });
    try {
      expect((await fetch(`${server.baseUrl}/metrics`)).status).toBe(401);
      const res = await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(200);
      const text = await res.text();
      const healthz = { method: 'GET', route: '/healthz', status_class: '2xx' };
      expect(sample(text, 'laneboard_http_request_duration_seconds_count', healthz)).toBeGreaterThanOrEqual(
        1,
      );
    } finally {
      await stopServer(server, 'SIGTERM');
    }
  }, 120_000);

  it("counts the dispatcher thread's attempts by outcome", async () => {
    const { createRuntime } = (await import(path.join(DIST, 'runtime.js'))) as RuntimeModule;
    const { loadConfig } = (await import(path.join(DIST, 'config.js'))) as ConfigModule;
    const { buildApp } = (await import(path.join(DIST, 'app.js'))) as AppModule;
    const receiver = await WebhookReceiver.start();
    receiver.reply = (request) => ({ status: request.path === '/ok' ? 204 : 500 });
    const config = loadConfig({
      LANEBOARD_DATA_DIR: freshDataDir(),
      LANEBOARD_WEBHOOK_ALLOW_PRIVATE: 'true',
      LANEBOARD_WEBHOOK_ALLOW_HTTP: 'true',
      LANEBOARD_WEBHOOK_RETRY_DELAYS: '1h',
      LANEBOARD_METRICS_TOKEN: TOKEN,
    });
    const runtime: Runtime = await createRuntime(config, {
      migrations: 'apply',
      dispatcherThread: true,
      log: pino({ level: 'silent' }),
    });
    const app = await buildApp({
      database: runtime.database,
      services: runtime.services,
      rateLimit: config.rateLimit,
      metrics: runtime.metrics && { token: TOKEN, metrics: runtime.metrics },
    });
    try {
      runtime.startBackground();
      const { key } = await runtime.services.apiKeys.createKey(CLI_OPERATOR, {
        name: 'metrics',
        allBoards: true,
        grants: [],
      });
      const api = (url: string, body?: object) =>
        app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${key}` }, payload: body ?? {} });
      for (const hookPath of ['/ok', '/down']) {
        const hook = (
          await api('/api/ext/v1/webhooks', { url: receiver.url(hookPath), events: ['*'] })
        ).json().data;
        expect((await api(`/api/ext/v1/webhooks/${hook.id}/ping`)).statusCode).toBe(202);
      }
      await receiver.waitFor(2);
      // The thread reports what it counted before it answers that it is idle.
      await runtime.dispatcher.whenIdle();
      const scrape = await app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      const attempts = (outcome: string) =>
        sample(scrape.body, 'laneboard_webhook_attempts_total', { outcome });
      expect([attempts('delivered'), attempts('retrying'), attempts('failed')]).toEqual([1, 1, 0]);
      expect(sample(scrape.body, 'laneboard_webhooks_failing', {})).toBe(1);
    } finally {
      await app.close();
      await runtime.close();
      await receiver.close();
    }
  }, 120_000);
});
