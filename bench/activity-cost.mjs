// The cost of recording an activity on task create: the same app (built dist/, in this process) with
// the runtime's activity recorder (insert + webhook fan-out + change feed) against a recorder that only
// runs the webhook fan-out, as events were recorded before activities existed. Interleaved rounds;
// reports the ratio of median wall and CPU times per create. Two modes:
// - inject (default): sequential creates through app.inject, no sockets: the activity against the
//   create's in-process work alone, the most sensitive view.
// - http (BENCH_MODE=http): both apps listen on loopback and autocannon (a child process) sends creates
//   over 32 connections for BENCH_SECONDS each, as the API benchmark does: the cost as a client sees it.
//
//   npm run build && node bench/activity-cost.mjs                       SQLite
//   BENCH_DATABASE_URL=postgres://... node bench/activity-cost.mjs      PostgreSQL (a throwaway schema)
//   BENCH_ROUNDS=31 BENCH_CREATES=300                                   defaults (inject)
//   BENCH_MODE=http BENCH_SECONDS=3 BENCH_CONNECTIONS=32                defaults (http)
import { execFile } from 'node:child_process';
import os from 'node:os';
import { pino } from 'pino';
import { buildApp } from '../dist/app.js';
import { CLI_OPERATOR } from '../dist/domain/actor.js';
import { createRuntime } from '../dist/runtime.js';
import { createServices } from '../dist/services.js';
import { BoardWebhooks } from '../dist/webhooks/board-webhooks.js';
import { WebhookFanOut } from '../dist/webhooks/outbox.js';
import { benchDatabase, NO_RATE_LIMIT } from './support/bench-database.mjs';
import { median } from './support/stats.mjs';

const mode = process.env.BENCH_MODE ?? 'inject';
// Many short rounds: a round that a checkpoint or a collection lands in moves the median less.
const rounds = Number(process.env.BENCH_ROUNDS ?? (mode === 'http' ? 7 : 31));
const creates = Number(process.env.BENCH_CREATES ?? 300);
const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const bench = await benchDatabase('activity');
const { databaseUrl, config } = bench;
const runtime = await createRuntime(config, { migrations: 'apply', log: pino({ level: 'silent' }) });
const fanOut = new WebhookFanOut(() => {}, new BoardWebhooks(runtime.database));
// "Before": no activity row; only the webhook matching the event recorder used to do.
const before = await createServices({
  database: runtime.database,
  secrets: runtime.secrets,
  clock: runtime.clock,
  activities: {
    async record(tx, actor, input) {
      const activity = {
        id: 0,
        ...input,
        taskId: input.taskId ?? null,
        actor: {},
        origin: actor.origin,
        createdAt: new Date().toISOString(),
        firesWebhooks: actor.origin === 'api',
      };
      await fanOut.onRecorded(tx, activity);
      return activity;
    },
  },
});
const apps = {
  before: await buildApp({
    database: runtime.database,
    services: before,
    rateLimit: NO_RATE_LIMIT,
  }),
  after: await buildApp({
    database: runtime.database,
    services: runtime.services,
    rateLimit: NO_RATE_LIMIT,
  }),
};
const { key } = await runtime.services.apiKeys.createKey(CLI_OPERATOR, {
  name: 'bench',
  allBoards: true,
  grants: [],
});
const headers = { authorization: `Bearer ${key}` };
const board = (
  await apps.after.inject({ method: 'POST', url: '/api/ext/v1/boards', headers, payload: { name: 'Bench' } })
).json().data;
// Every round appends to a lane of its own, so both sides create into lanes of the same size (a
// create counts the lane's tasks for its position).
let lanes = 0;
async function freshLane() {
  const res = await apps.after.inject({
    method: 'POST',
    url: `/api/ext/v1/boards/${board.id}/lanes`,
    headers,
    payload: { name: `L${++lanes}` },
  });
  return res.json().data;
}

/** Creates over HTTP from an autocannon child process for `seconds`: wall time per create is the
 * inverse of the throughput, CPU time is this (the server's) process's per response. */
async function httpRound(app) {
  const lane = await freshLane();
  const address = app.server.address();
  const args = [
    'node_modules/autocannon/autocannon.js',
    '--json',
    '-c',
    String(connections),
    '-d',
    String(seconds),
    '-m',
    'POST',
    '-H',
    `authorization=${headers.authorization}`,
    '-H',
    'content-type=application/json',
    '-b',
    JSON.stringify({ title: 'bench task', laneId: lane.id }),
    `http://127.0.0.1:${address.port}/api/ext/v1/boards/${board.id}/tasks`,
  ];
  const cpuStart = process.cpuUsage();
  const output = await new Promise((resolve, reject) =>
    execFile(process.execPath, args, { maxBuffer: 1 << 24 }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    ),
  );
  const cpu = process.cpuUsage(cpuStart);
  const result = JSON.parse(output);
  const ok = result['2xx'];
  if (!ok || result.non2xx || result.errors) throw new Error(`create over http: ${output.slice(0, 300)}`);
  return { wall: (seconds * 1000) / ok, cpu: (cpu.user + cpu.system) / 1e3 / ok };
}

/** Wall time and this process's CPU time per create (ms): on a shared machine wall time also counts
 * the waits for a core, CPU time only the work done. */
async function round(app) {
  if (mode === 'http') return httpRound(app);
  const lane = await freshLane();
  const start = process.hrtime.bigint();
  const cpuStart = process.cpuUsage();
  for (let i = 0; i < creates; i++) {
    const res = await app.inject({
      method: 'POST',
      url: `/api/ext/v1/boards/${board.id}/tasks`,
      headers,
      payload: { title: `t${i}`, laneId: lane.id },
    });
    if (res.statusCode !== 201) throw new Error(`create: ${res.statusCode} ${res.body}`);
  }
  const cpu = process.cpuUsage(cpuStart);
  return {
    wall: Number(process.hrtime.bigint() - start) / 1e6 / creates,
    cpu: (cpu.user + cpu.system) / 1e3 / creates,
  };
}

if (mode === 'http') {
  await apps.before.listen({ host: '127.0.0.1', port: 0 });
  await apps.after.listen({ host: '127.0.0.1', port: 0 });
}
const times = { before: [], after: [] };
const cpuTimes = { before: [], after: [] };
await round(apps.before); // warm-up
await round(apps.after);
for (let r = 0; r < rounds; r++) {
  // Which side goes first is drawn per round, so drift in machine load does not favour one side and a
  // periodic cost (a checkpoint every so many commits) does not keep landing on the same side, as it
  // did with strict alternation.
  const order = Math.random() < 0.5 ? ['after', 'before'] : ['before', 'after'];
  for (const side of order) {
    const { wall, cpu } = await round(apps[side]);
    times[side].push(wall);
    cpuTimes[side].push(cpu);
  }
}
const result = {
  database: databaseUrl ? 'postgres' : 'sqlite',
  mode,
  rounds,
  ...(mode === 'http' ? { seconds, connections } : { createsPerRound: creates }),
  loadavg: os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' '),
  msPerCreateBefore: median(times.before).toFixed(3),
  msPerCreateAfter: median(times.after).toFixed(3),
  costPercent: ((median(times.after) / median(times.before) - 1) * 100).toFixed(1),
  cpuMsPerCreateBefore: median(cpuTimes.before).toFixed(3),
  cpuMsPerCreateAfter: median(cpuTimes.after).toFixed(3),
  cpuCostPercent: ((median(cpuTimes.after) / median(cpuTimes.before) - 1) * 100).toFixed(1),
  // The same, from the ratio of each round's pair (the two sides ran back to back): less sensitive to
  // the load changing between rounds.
  pairedCostPercent: ((median(times.after.map((t, r) => t / times.before[r])) - 1) * 100).toFixed(1),
  pairedCpuCostPercent: ((median(cpuTimes.after.map((t, r) => t / cpuTimes.before[r])) - 1) * 100).toFixed(1),
};
console.log(JSON.stringify(result));
await apps.before.close();
await apps.after.close();
await runtime.close();
await bench.drop();
