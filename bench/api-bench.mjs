// API benchmark: Laneboard (built server, one or more instances) against the bare baseline server, in
// interleaved rounds on this machine, reported as ratios of medians because absolute timings are noisy.
//
//   node bench/api-bench.mjs                                  SQLite
//   BENCH_DATABASE_URL=postgres://... node bench/api-bench.mjs PostgreSQL (BENCH_INSTANCES=2 for two)
//   BENCH_ROUNDS=5 BENCH_SECONDS=3 BENCH_CONNECTIONS=32       defaults
//   BENCH_SERVER_ARGS='--max-semi-space-size=4'               node options for Laneboard's servers
//   BENCH_FLOOR=fastify                                       the baseline's handler behind bare Fastify
//                                                             in Laneboard's place (SQLite): the framework's floor
// The baseline runs on the same database as Laneboard: baseline-server.mjs on the SQLite file,
// baseline-server-pg.mjs on the PostgreSQL schema. Besides requests per second it reports each side's
// server CPU time per response (from /proc) and Laneboard's peak RSS.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { scenariosOf, seedBoards } from './support/api-scenarios.mjs';
import { BENCH_SECRET_KEY, throwawaySchema } from './support/postgres-schema.mjs';
import { cpuTicks, loadAverage, peakRssMb } from './support/proc.mjs';
import {
  fetchApi,
  migrateAndCreateKey,
  serverEnv,
  startServer,
  stopProcess,
} from './support/server-process.mjs';
import { median } from './support/stats.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const instances = Number(process.env.BENCH_INSTANCES ?? 1);
const databaseUrl = process.env.BENCH_DATABASE_URL ?? null;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-bench-'));
const children = [];
// Ports derived from the pid so two benchmark runs on one machine never answer each other's requests.
const portBase = Number(process.env.BENCH_PORT_BASE ?? 20000 + (process.pid % 2000) * 20);
// Node options for Laneboard's server processes only (e.g. `--trace-gc`, or V8 heap flags to compare).
const serverArgs = (process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean);
// Only the scenarios whose name contains one of these words (comma-separated), e.g. `detail,create`.
const only = (process.env.BENCH_ONLY ?? '').split(',').filter(Boolean);
// `fastify`: after seeding, the Laneboard side is replaced by the baseline's own handler behind a bare
// Fastify app (bench/baseline-server.mjs with BASELINE_HTTP=fastify): what the framework alone costs.
const floor = process.env.BENCH_FLOOR ?? null;
if (floor !== null && (floor !== 'fastify' || databaseUrl || instances !== 1)) {
  process.stderr.write('BENCH_FLOOR=fastify runs on SQLite with one instance only.\n');
  process.exit(2);
}

/** Laneboard (dist/main.js) or a baseline server (bench/…, no /healthz: any answer will do) on `port`. */
async function start(script, port, extra, nodeArgs = []) {
  const child = await startServer({
    script,
    nodeArgs,
    cwd: root,
    env: serverEnv(dataDir, { PORT: String(port), ...extra }),
    healthUrl: `http://127.0.0.1:${port}/healthz`,
    anyStatus: script.startsWith('bench/'),
  });
  children.push(child);
  return child;
}

function run(ports, key, scenario) {
  const runs = ports.map(
    (port) =>
      new Promise((resolve, reject) =>
        autocannon(
          {
            url: `http://127.0.0.1:${port}${scenario.path}`,
            method: scenario.method,
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: scenario.body,
            connections: Math.max(1, Math.round(connections / ports.length)),
            duration: seconds,
          },
          (err, result) => (err ? reject(err) : resolve(result)),
        ),
      ),
  );
  return Promise.all(runs).then((results) => ({
    rps: results.reduce((sum, r) => sum + r.requests.average, 0),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    errors: results.reduce((sum, r) => sum + r.errors + r.non2xx, 0),
  }));
}

async function stopAll() {
  await Promise.all(children.splice(0).map((child) => stopProcess(child)));
}

/** Runs the load and measures the servers' CPU time (microseconds) per response served meanwhile. */
async function measured(procs, load) {
  const before = procs.map((p) => cpuTicks(p.pid));
  const result = await load();
  const ticks = procs.reduce((sum, p, i) => sum + cpuTicks(p.pid) - before[i], 0);
  const responses = result.rps * seconds;
  return { ...result, cpuPerResponse: responses > 0 ? (ticks * 10_000) / responses : 0 };
}

try {
  if (!fs.existsSync(path.join(root, 'dist/main.js')))
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  const pgTarget = databaseUrl ? await throwawaySchema(databaseUrl, `bench_${process.pid}`) : null;
  const dbEnv = pgTarget ? { DATABASE_URL: pgTarget.url } : {};
  // The database is migrated and the key made by the CLI, on the database Laneboard uses.
  const key = migrateAndCreateKey(root, serverEnv(dataDir, dbEnv));
  fs.writeFileSync(path.join(dataDir, 'secret.key'), BENCH_SECRET_KEY);
  const lanePorts = Array.from({ length: instances }, (_, i) => portBase + i);
  const laneProcs = [];
  for (const port of lanePorts) laneProcs.push(await start('dist/main.js', port, dbEnv, serverArgs));

  // Data: one board with 100 tasks over 4 lanes for reads, another board for creates.
  const lb = await seedBoards(fetchApi(`http://127.0.0.1:${lanePorts[0]}`, key), { tags: ['bench'] });
  if (floor) {
    // The seeded data stays; the bare Fastify handler serves it on Laneboard's port.
    const laneboard = laneProcs.pop();
    children.splice(children.indexOf(laneboard), 1);
    await stopProcess(laneboard);
    laneProcs.push(
      await start('bench/baseline-server.mjs', lanePorts[0], { BASELINE_HTTP: 'fastify' }, serverArgs),
    );
  }
  // Instances take portBase..; the baseline sits above any instance count used. It works on the same
  // database and data as Laneboard.
  const basePort = portBase + 18;
  const base = lb;
  const baseProc = await start(
    pgTarget ? 'bench/baseline-server-pg.mjs' : 'bench/baseline-server.mjs',
    basePort,
    dbEnv,
  );
  const loadBefore = loadAverage();

  const scenarios = (ids) =>
    scenariosOf(ids).filter((s) => only.length === 0 || only.some((w) => s.name.includes(w)));
  const results = {};
  for (let round = 0; round < rounds; round++) {
    for (const [i, scenario] of scenarios(lb).entries()) {
      const baseScenario = scenarios(base)[i];
      if (!results[scenario.name]) {
        results[scenario.name] = {
          baseline: [],
          laneboard: [],
          p99: [],
          baseP99: [],
          errors: 0,
          baseErrors: 0,
          cpu: [],
          baseCpu: [],
        };
      }
      const entry = results[scenario.name];
      // Alternate which side goes first, so neither always runs on a machine warmed (or loaded) by the other.
      const measureBase = () => measured([baseProc], () => run([basePort], key, baseScenario));
      const measureLane = () => measured(laneProcs, () => run(lanePorts, key, scenario));
      let b;
      let l;
      if (round % 2 === 0) {
        b = await measureBase();
        l = await measureLane();
      } else {
        l = await measureLane();
        b = await measureBase();
      }
      entry.cpu.push(l.cpuPerResponse);
      entry.baseCpu.push(b.cpuPerResponse);
      entry.baseline.push(b.rps);
      entry.laneboard.push(l.rps);
      entry.p99.push(l.p99);
      entry.baseP99.push(b.p99);
      entry.errors += l.errors;
      entry.baseErrors += b.errors;
    }
  }
  const label = floor
    ? 'SQLite; in the Laneboard column: the baseline handler behind bare Fastify'
    : `${pgTarget ? 'PostgreSQL' : 'SQLite'}, ${instances} instance${instances > 1 ? 's' : ''}`;
  const loadAfter = loadAverage();
  const rss = laneProcs.map((p) => peakRssMb(p.pid));
  console.log(
    `\nAPI benchmark (${label}; ${rounds} rounds × ${seconds}s, ${connections} connections, node ${process.version}, ${os.cpus().length} cores)`,
  );
  console.log(
    `${new Date().toISOString()}; load average ${loadBefore} → ${loadAfter}; Laneboard peak RSS ${rss.join(', ')} MB\n`,
  );
  console.log(
    '| scenario | baseline req/s | Laneboard req/s | ratio | CPU/response baseline / Laneboard µs | CPU ratio | Laneboard p99 ms | errors (baseline/Laneboard) |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  const summary = {};
  for (const [name, e] of Object.entries(results)) {
    const ratio = median(e.laneboard) / median(e.baseline);
    // Baseline CPU per response over Laneboard's: like the throughput ratio, 1.00× means as cheap.
    const cpuRatio = median(e.baseCpu) / median(e.cpu);
    summary[name] = {
      baseline: median(e.baseline),
      laneboard: median(e.laneboard),
      ratio,
      cpuPerResponseUs: { baseline: median(e.baseCpu), laneboard: median(e.cpu) },
      cpuRatio,
      p99: median(e.p99),
      errors: { baseline: e.baseErrors, laneboard: e.errors },
    };
    console.log(
      `| ${name} | ${median(e.baseline).toFixed(0)} | ${median(e.laneboard).toFixed(0)} | ${ratio.toFixed(2)}× | ${median(e.baseCpu).toFixed(0)} / ${median(e.cpu).toFixed(0)} | ${cpuRatio.toFixed(2)}× | ${median(e.p99)} | ${e.baseErrors}/${e.errors} |`,
    );
  }
  fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  fs.writeFileSync(
    path.join(
      root,
      `bench/results/api-${floor ? 'fastify-floor' : pgTarget ? 'pg' : 'sqlite'}-${instances}.json`,
    ),
    JSON.stringify(
      { label, date: new Date().toISOString(), load: [loadBefore, loadAfter], peakRssMb: rss, summary },
      null,
      2,
    ),
  );
  if (pgTarget) {
    // The servers' dispatchers keep querying the schema: dropping it under them can deadlock.
    await stopAll();
    await pgTarget.drop();
  }
} finally {
  await stopAll();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
