// What GET /metrics costs the API (issue 30: under 3 % of its throughput): the same requests with metrics
// off (no LANEBOARD_METRICS_TOKEN) and on (every request timed, /metrics scraped meanwhile), in
// interleaved rounds on this machine, reported as ratios of medians (absolute numbers on a shared machine
// are noise). Two modes:
// - inject (default, metrics-overhead-inject.mjs): one process, two apps on one runtime, requests one at
//   a time through app.inject; CPU time per request is this process's. The steadiest view: nothing but
//   the metrics differs, and no client competes for the cores. A scrape's CPU time is measured apart
//   and given as a share of one core at Prometheus's default interval (15 s).
// - http (BENCH_MODE=http, metrics-overhead-http.mjs): two built servers, autocannon over 32 connections
//   for BENCH_SECONDS each, a scrape every BENCH_SCRAPE_MS (default 1 s, 15 times Prometheus's default).
// Last, the request hook alone: nanoseconds per observation, without any server.
//
//   npm run build && node bench/metrics-overhead.mjs                       SQLite, inject
//   BENCH_DATABASE_URL=postgres://... node bench/metrics-overhead.mjs      PostgreSQL (throwaway schemas)
//   BENCH_ROUNDS=31 BENCH_REQUESTS=300                                     defaults (inject)
//   BENCH_AA=1                                                             inject with metrics off on both sides
//   BENCH_MODE=http BENCH_ROUNDS=9 BENCH_SECONDS=3 BENCH_CONNECTIONS=32    defaults (http)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAverage } from './support/proc.mjs';
import { median } from './support/stats.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const mode = process.env.BENCH_MODE ?? 'inject';
const rounds = Number(process.env.BENCH_ROUNDS ?? (mode === 'http' ? 9 : 31));
const requests = Number(process.env.BENCH_REQUESTS ?? 300);
const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const scrapeMs = Number(process.env.BENCH_SCRAPE_MS ?? 1000);
const databaseUrl = process.env.BENCH_DATABASE_URL ?? null;

/** One observeRequest (dist/metrics/metrics.js) over a spread of routes and statuses: CPU nanoseconds. */
async function hookCostNs() {
  const { Metrics } = await import('../dist/metrics/metrics.js');
  // Nothing is scraped here, so the database is never read.
  const metrics = new Metrics({
    database: { pgPool: null },
    clock: { now: () => Date.now() },
    openStreams: () => 0,
    onCollectError: () => {},
  });
  const routes = [
    '/api/ext/v1/boards/:boardId/tasks',
    '/api/ext/v1/boards/:boardId/tasks/:taskId',
    '/healthz',
  ];
  const observe = (i) =>
    metrics.observeRequest(i % 7 === 0 ? 'POST' : 'GET', routes[i % 3], i % 50 === 0 ? 404 : 200, 0.002);
  for (let i = 0; i < 200_000; i++) observe(i);
  // CPU time, not wall time: on a loaded machine the loop waits for a core, which costs nothing.
  const samples = [];
  for (let r = 0; r < 9; r++) {
    const start = process.cpuUsage();
    for (let i = 0; i < 1_000_000; i++) observe(i);
    const cpu = process.cpuUsage(start);
    samples.push((cpu.user + cpu.system) / 1000);
  }
  metrics.close();
  return median(samples);
}

if (!fs.existsSync(path.join(root, 'dist/metrics/metrics.js')))
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
const bench =
  mode === 'http'
    ? await (await import('./metrics-overhead-http.mjs')).httpSides({
        root,
        databaseUrl,
        seconds,
        connections,
        scrapeMs,
      })
    : await (await import('./metrics-overhead-inject.mjs')).injectSides({ databaseUrl, requests });
try {
  const loadBefore = loadAverage();
  for (const i of bench.names.keys()) {
    await bench.measure('off', i); // warm-up
    await bench.measure('on', i);
  }
  const results = Object.fromEntries(
    bench.names.map((name) => [
      name,
      { off: [], on: [], cpuOff: [], cpuOn: [], pairs: [], errors: 0, scrapes: 0 },
    ]),
  );
  for (let round = 0; round < rounds; round++) {
    for (const [i, name] of bench.names.entries()) {
      const entry = results[name];
      // Which side goes first is drawn per scenario and round: drift in the machine's load favours neither.
      const order = Math.random() < 0.5 ? ['off', 'on'] : ['on', 'off'];
      const cpu = {};
      for (const side of order) {
        const m = await bench.measure(side, i);
        entry[side].push(m.rps);
        entry[side === 'on' ? 'cpuOn' : 'cpuOff'].push(m.cpuUs);
        cpu[side] = m.cpuUs;
        entry.errors += m.errors;
        entry.scrapes += m.scrapes;
      }
      // The two sides of one round ran seconds apart, under much the same load: their ratio drifts less.
      entry.pairs.push(cpu.on / cpu.off);
    }
  }
  const database = databaseUrl ? 'PostgreSQL' : 'SQLite';
  const settings =
    mode === 'http'
      ? `${rounds} rounds × ${seconds}s, ${connections} connections, a scrape every ${scrapeMs} ms`
      : `${rounds} rounds × ${requests} requests through inject${process.env.BENCH_AA ? ', A/A: metrics off on both sides' : ''}`;
  console.log(
    `\nMetrics overhead (${database}, ${mode}; ${settings}; node ${process.version}, ${os.cpus().length} cores)`,
  );
  console.log(`${new Date().toISOString()}; load average ${loadBefore} → ${loadAverage()}\n`);
  console.log(
    '| scenario | off req/s | on req/s | throughput on/off | CPU µs/request off / on | CPU on/off | CPU on/off, median of rounds | errors |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  const summary = {};
  for (const [name, e] of Object.entries(results)) {
    const ratio = median(e.on) / median(e.off);
    const cpuRatio = median(e.cpuOn) / median(e.cpuOff);
    summary[name] = {
      off: median(e.off),
      on: median(e.on),
      ratio,
      cpuUs: { off: median(e.cpuOff), on: median(e.cpuOn) },
      cpuRatio,
      pairedCpuRatio: median(e.pairs),
      scrapes: e.scrapes,
      errors: e.errors,
    };
    console.log(
      `| ${name} | ${median(e.off).toFixed(0)} | ${median(e.on).toFixed(0)} | ${ratio.toFixed(3)} | ${median(e.cpuOff).toFixed(0)} / ${median(e.cpuOn).toFixed(0)} | ${cpuRatio.toFixed(3)} | ${median(e.pairs).toFixed(3)} | ${e.errors} |`,
    );
  }
  const hookNs = await hookCostNs();
  const cheapest = Math.min(...Object.values(summary).map((e) => e.cpuUs.off));
  console.log(
    `\nThe request hook alone: ${hookNs.toFixed(0)} ns per request, ${(hookNs / 10 / cheapest).toFixed(2)} % of the cheapest scenario's CPU per request (metrics off)`,
  );
  let scrapeMsCpu = null;
  if (bench.scrapeCpuMs && !process.env.BENCH_AA) {
    scrapeMsCpu = await bench.scrapeCpuMs(31);
    console.log(
      `A scrape: ${scrapeMsCpu.toFixed(2)} ms of CPU; every 15 s that is ${(scrapeMsCpu / 150).toFixed(3)} % of one core`,
    );
  }
  fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  fs.writeFileSync(
    path.join(root, `bench/results/metrics-overhead-${mode}-${databaseUrl ? 'pg' : 'sqlite'}.json`),
    JSON.stringify(
      { database, mode, date: new Date().toISOString(), settings, hookNs, scrapeMsCpu, summary },
      null,
      2,
    ),
  );
} finally {
  await bench.close();
}
