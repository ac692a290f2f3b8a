// The HTTP mode of metrics-overhead.mjs: two built servers (`node dist/main.js`), each with its own data
// directory (and schema) and the same seeded data, one with LANEBOARD_METRICS_TOKEN; autocannon against
// one at a time, a scraper reading the metrics side's /metrics meanwhile. CPU time per response is the
// server process's, from /proc.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { seed, TOKEN } from './metrics-overhead-inject.mjs';
import { throwawaySchema } from './support/postgres-schema.mjs';
import { cpuTicks } from './support/proc.mjs';
import { fetchApi, serverEnv, startLaneboard, stopProcess } from './support/server-process.mjs';

/** Scrapes /metrics every `scrapeMs` until the returned function is called; it resolves the count. */
function startScraper(port, scrapeMs) {
  let stopped = false;
  let scrapes = 0;
  const loop = (async () => {
    while (!stopped) {
      const res = await fetch(`http://127.0.0.1:${port}/metrics`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      const text = await res.text();
      if (res.status !== 200 || !text.includes('laneboard_http_request_duration_seconds')) {
        throw new Error(`scrape: ${res.status} ${text.slice(0, 200)}`);
      }
      scrapes++;
      await new Promise((r) => setTimeout(r, scrapeMs));
    }
  })();
  return async () => {
    stopped = true;
    await loop;
    return scrapes;
  };
}

export async function httpSides({ root, databaseUrl, seconds, connections, scrapeMs }) {
  const portBase = Number(process.env.BENCH_PORT_BASE ?? 24000 + (process.pid % 2000) * 4);
  const children = [];
  const dataDirs = [];
  const schemas = [];

  async function startSide(side, port) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `laneboard-metrics-bench-${side}-`));
    dataDirs.push(dataDir);
    let url = null;
    if (databaseUrl) {
      const schema = await throwawaySchema(databaseUrl, `bench_metrics_${side}_${process.pid}`);
      schemas.push(schema);
      url = schema.url;
    }
    const env = serverEnv(dataDir, {
      ...(url ? { DATABASE_URL: url } : {}),
      ...(side === 'on' ? { LANEBOARD_METRICS_TOKEN: TOKEN } : {}),
    });
    const { child, key } = await startLaneboard({ root, env, port });
    children.push(child);
    return { side, port, key, child, scenarios: await seed(fetchApi(`http://127.0.0.1:${port}`, key)) };
  }

  const sides = { off: await startSide('off', portBase), on: await startSide('on', portBase + 1) };

  async function measure(side, index) {
    const target = sides[side];
    const scenario = target.scenarios[index];
    const stopScraper = side === 'on' ? startScraper(target.port, scrapeMs) : null;
    const before = cpuTicks(target.child.pid);
    const result = await new Promise((resolve, reject) =>
      autocannon(
        {
          url: `http://127.0.0.1:${target.port}${scenario.path}`,
          method: scenario.method,
          headers: { authorization: `Bearer ${target.key}`, 'content-type': 'application/json' },
          body: scenario.body,
          connections,
          duration: seconds,
        },
        (err, r) => (err ? reject(err) : resolve(r)),
      ),
    );
    const ticks = cpuTicks(target.child.pid) - before;
    const scrapes = stopScraper ? await stopScraper() : 0;
    const responses = result.requests.average * seconds;
    return {
      rps: result.requests.average,
      cpuUs: responses > 0 ? (ticks * 10_000) / responses : 0,
      errors: result.errors + result.non2xx,
      scrapes,
    };
  }

  return {
    names: sides.off.scenarios.map((s) => s.name),
    measure,
    async close() {
      await Promise.all(children.map((child) => stopProcess(child)));
      for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
      for (const schema of schemas) await schema.drop();
    },
  };
}
