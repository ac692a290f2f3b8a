// The in-process mode of metrics-overhead.mjs: one runtime (built dist/, LANEBOARD_METRICS_TOKEN set) and
// two apps on it, one without the metrics endpoint and its request hook, one with them, both with the
// server's logger (at warn: a server always has one, and with it Fastify sets up its response listeners
// whether or not a hook needs them); requests through app.inject, one at a time, so the CPU time per
// request is this process's work alone, with no sockets and no client competing for the cores. Scrapes
// are measured apart (scrapeCpuMs): in the rounds, one per round would weigh a scrape per few hundred
// requests, where Prometheus scrapes every 15 s whatever the rate.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { buildApp } from '../dist/app.js';
import { loadConfig } from '../dist/config.js';
import { CLI_OPERATOR } from '../dist/domain/actor.js';
import { createRuntime } from '../dist/runtime.js';
import { scenariosOf, seedBoards } from './support/api-scenarios.mjs';
import { BENCH_SECRET_KEY, throwawaySchema } from './support/postgres-schema.mjs';
import { median } from './support/stats.mjs';

export const TOKEN = 'bench-metrics-token-0123456789';

/** The API benchmark's data, seeded through `api(method, url, body)` (one side's), and its scenarios. */
export const seed = async (api) => scenariosOf(await seedBoards(api));

export async function injectSides({ databaseUrl, requests }) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-metrics-inject-'));
  const schema = databaseUrl
    ? await throwawaySchema(databaseUrl, `bench_metrics_inject_${process.pid}`)
    : null;
  const config = {
    ...loadConfig({ LANEBOARD_DATA_DIR: dataDir, LANEBOARD_METRICS_TOKEN: TOKEN }),
    databaseUrl: schema?.url ?? null,
    secretKey: BENCH_SECRET_KEY,
  };
  const runtime = await createRuntime(config, { migrations: 'apply', log: pino({ level: 'silent' }) });
  const rateLimit = { max: 1e9, windowMs: 60_000 };
  const common = {
    database: runtime.database,
    services: runtime.services,
    rateLimit,
    loggerInstance: pino({ level: 'warn' }),
  };
  const apps = {
    off: await buildApp({ ...common, metrics: null }),
    // BENCH_AA=1: both sides without metrics, to see the noise floor and any bias of the second app.
    on: await buildApp({
      ...common,
      metrics: process.env.BENCH_AA ? null : { token: TOKEN, metrics: runtime.metrics },
    }),
  };
  const { key } = await runtime.services.apiKeys.createKey(CLI_OPERATOR, {
    name: 'bench',
    allBoards: true,
    grants: [],
  });
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const api = async (method, url, body) =>
    (await apps.off.inject({ method, url: `/api/ext/v1${url}`, headers, payload: body })).json().data;
  // Both apps serve the same data: the sides differ only in the metrics.
  const scenarios = await seed(api);

  async function measure(side, index) {
    const app = apps[side];
    const scenario = scenarios[index];
    let errors = 0;
    const start = process.hrtime.bigint();
    const cpuStart = process.cpuUsage();
    for (let i = 0; i < requests; i++) {
      const res = await app.inject({
        method: scenario.method,
        url: scenario.path,
        headers,
        ...(scenario.body ? { payload: scenario.body } : {}),
      });
      if (res.statusCode >= 300) errors++;
    }
    const cpu = process.cpuUsage(cpuStart);
    const wallSeconds = Number(process.hrtime.bigint() - start) / 1e9;
    return { rps: requests / wallSeconds, cpuUs: (cpu.user + cpu.system) / requests, errors, scrapes: 0 };
  }

  /** This process's CPU time of one scrape (ms), median of `count`. */
  async function scrapeCpuMs(count) {
    const samples = [];
    for (let i = 0; i < count; i++) {
      const cpuStart = process.cpuUsage();
      const res = await apps.on.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      if (res.statusCode !== 200) throw new Error(`scrape: ${res.statusCode} ${res.body.slice(0, 200)}`);
      const cpu = process.cpuUsage(cpuStart);
      samples.push((cpu.user + cpu.system) / 1000);
    }
    return median(samples);
  }

  return {
    names: scenarios.map((s) => s.name),
    measure,
    scrapeCpuMs,
    async close() {
      await apps.off.close();
      await apps.on.close();
      await runtime.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      await schema?.drop();
    },
  };
}
