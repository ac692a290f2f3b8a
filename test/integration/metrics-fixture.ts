import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { Dialect } from '../../src/db/schema.js';
import { CLI_OPERATOR } from '../../src/domain/actor.js';
import type { Runtime } from '../../src/runtime.js';
import { ManualClock } from '../support/clock.js';
import { createTestDatabase } from '../support/database.js';
import { useFixture } from '../support/dialects.js';
import { testConfig, testRuntime } from '../support/runtime.js';

/* The server with or without metrics, and reading a scrape (metrics*.test.ts). */

export const API = '/api/ext/v1';
export const TOKEN = 'metrics-token-0123456789';
export const MINUTE = 60_000;

export interface MetricsApp {
  app: FastifyInstance;
  runtime: Runtime;
  clock: ManualClock;
  /** An API key that sees every board. */
  key: string;
  api(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    body?: object,
  ): Promise<LightMyRequestResponse>;
  scrape(authorization?: string): Promise<LightMyRequestResponse>;
  /** The scrape's text, asserted to be a 200. */
  metrics(): Promise<string>;
  close(): Promise<void>;
}

/** The server as main.ts builds it, with LANEBOARD_METRICS_TOKEN set (or not), a manual clock. */
export function useMetricsApp(
  dialect: Dialect,
  options: { token: string | null; startDispatcher?: boolean },
): MetricsApp {
  return useFixture(
    `the ${dialect} app with metrics ${options.token ? 'on' : 'off'}`,
    async () => {
      const db = await createTestDatabase(dialect);
      const clock = new ManualClock(Date.parse('2026-11-27T10:00:00.000Z'));
      const runtime = await testRuntime(db.database, {
        clock,
        config: {
          metricsToken: options.token,
          webhooks: {
            ...testConfig().webhooks,
            allowHttp: true,
            allowPrivate: true,
            retryDelaysMs: [MINUTE],
          },
        },
        dispatcher: { timeoutMs: 5000, pollIntervalMs: 200 },
      });
      const app = await buildApp({
        database: db.database,
        services: runtime.services,
        rateLimit: { max: 1_000_000, windowMs: 60_000 },
        metrics: options.token && runtime.metrics ? { token: options.token, metrics: runtime.metrics } : null,
      });
      await app.ready();
      if (options.startDispatcher !== false) runtime.dispatcher.start();
      const { key } = await runtime.services.apiKeys.createKey(CLI_OPERATOR, {
        name: 'metrics test',
        allBoards: true,
        grants: [],
      });
      const scrape = (authorization?: string) =>
        app.inject({
          method: 'GET',
          url: '/metrics',
          headers: authorization === undefined ? {} : { authorization },
        });
      return {
        app,
        runtime,
        clock,
        key,
        api: (method, url, body) =>
          app.inject({
            method,
            url,
            headers: { authorization: `Bearer ${key}` },
            ...(body ? { payload: body } : {}),
          }),
        scrape,
        async metrics() {
          const res = await scrape(`Bearer ${TOKEN}`);
          expect(res.statusCode, res.body).toBe(200);
          return res.body;
        },
        async close() {
          await app.close();
          await runtime.close();
          await db.drop();
        },
      };
    },
    (t) => t.close(),
  );
}

/** The value of one sample (exactly these labels), or undefined when the text has no such series. */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels)
    .map(([label, value]) => `${label}="${value}"`)
    .sort();
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = (match[2] ? match[2].split(',') : []).sort();
    if (have.join(',') === wanted.join(',')) return Number(match[3]);
  }
  return undefined;
}
