// Webhook delivery latency through the API (issue 25, item 9): the built server on SQLite, one
// `task.created` webhook, tasks created through the API at a steady rate.
//
//   npm run build && node bench/webhook-latency.mjs
//   BENCH_RATE=500 BENCH_SECONDS=10 BENCH_ROUNDS=1 BENCH_CONNECTIONS=16 node bench/webhook-latency.mjs   # the defaults
//   BENCH_ROOT=/path/to/other/checkout node bench/webhook-latency.mjs    another build (A/B runs)
//   BENCH_SERVER_ARGS=--cpu-prof node bench/webhook-latency.mjs    profile the server (files in its data directory)
//   BENCH_DATABASE_URL=postgres://... node bench/webhook-latency.mjs    PostgreSQL (a throwaway schema a round)
//
// `node dist/main.js` on a fresh data directory (LANEBOARD_WEBHOOK_ALLOW_PRIVATE/HTTP), a key made by
// the CLI, a board, a lane and one webhook (events ["task.created"]) to a receiver process on 127.0.0.1
// (bench/webhook-sink.mjs). Creates are sent open-loop (each at its scheduled time, whether or not the
// earlier ones were answered) at BENCH_RATE per second for BENCH_SECONDS, after one second of warm-up.
// Per task: the create's own time (sent → answered), and the delivery's delay from the create's answer
// to the receiver's arrival (both clocks are this machine's wall clock, in fractional milliseconds; a
// delivery may arrive before the answer: a negative delay). Prints one JSON object.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { throwawaySchema } from './support/postgres-schema.mjs';
import { cpuSeconds, loadAverage } from './support/proc.mjs';
import { throwawayLaneboard } from './support/server-process.mjs';
import { percentile } from './support/stats.mjs';
import { startSink, WEBHOOK_ENV } from './support/webhook-receiver.mjs';

const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const root = path.resolve(process.env.BENCH_ROOT ?? here);
if (!fs.existsSync(path.join(root, 'dist/main.js'))) {
  process.stderr.write(`Run \`npm run build\` first (no ${root}/dist/main.js).\n`);
  process.exit(2);
}

const RATE = Number(process.env.BENCH_RATE ?? 500);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const PORT = Number(process.env.BENCH_PORT ?? 3000 + (process.pid % 20000));
const WARM_UP_SECONDS = 1;
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? null;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const wallClock = () => performance.timeOrigin + performance.now();
const SERVER_ARGS = (process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean);
const round1 = (ms) => Math.round(ms * 10) / 10;

function summary(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p50: round1(percentile(sorted, 50)),
    p90: round1(percentile(sorted, 90)),
    p99: round1(percentile(sorted, 99)),
    max: round1(sorted[sorted.length - 1]),
  };
}

/** The server's DATABASE_URL: on PostgreSQL a fresh schema (`drop` removes it), else none (SQLite). */
async function roundDatabase(round) {
  if (!DATABASE_URL) return { url: null, drop: async () => {} };
  return throwawaySchema(DATABASE_URL, `bench_latency_${process.pid}_${round}`);
}

/** Creates at RATE per second for `seconds`, each sent at its time; resolves with every create's times. */
async function steadyCreates(api, boardId, laneId, seconds, label) {
  const total = Math.round(RATE * seconds);
  const started = performance.now();
  const creates = [];
  let sent = 0;
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - started) * RATE) / 1000) + 1);
    for (; sent < due; sent++) {
      const sentAt = wallClock();
      creates.push(
        api('POST', `/boards/${boardId}/tasks`, { title: `${label} ${sent}`, laneId }).then((task) => ({
          taskId: task.id,
          sentAt,
          answeredAt: wallClock(),
        })),
      );
    }
    await sleep(1);
  }
  return Promise.all(creates);
}

async function latencyRound(sink, round) {
  const database = await roundDatabase(round);
  let server = null;
  try {
    server = await throwawayLaneboard({
      root,
      port: PORT,
      name: 'latency',
      extraEnv: { ...WEBHOOK_ENV, ...(database.url ? { DATABASE_URL: database.url } : {}) },
      nodeArgs: SERVER_ARGS,
      connections: CONNECTIONS,
    });
    const { child, api } = server;
    const board = await api('POST', '/boards', { name: 'Latency' });
    const lane = await api('POST', `/boards/${board.id}/lanes`, { name: 'Inbox' });
    await api('POST', '/webhooks', { url: `http://127.0.0.1:${sink.port}/hook`, events: ['task.created'] });
    await steadyCreates(api, board.id, lane.id, WARM_UP_SECONDS, 'Warm-up');
    await sink.ask('reset');
    const cpuBefore = cpuSeconds(child.pid);
    const creates = await steadyCreates(api, board.id, lane.id, SECONDS, 'Task');
    const cpu = cpuSeconds(child.pid) - cpuBefore;
    // Every create's delivery, or a minute after the last create (then the rest count as missing).
    const deadline = Date.now() + 60_000;
    let arrivals;
    for (;;) {
      ({ arrivals } = await sink.ask('arrivals'));
      if (creates.every((c) => c.taskId in arrivals) || Date.now() > deadline) break;
      await sleep(50);
    }
    const delays = [];
    let missing = 0;
    for (const create of creates) {
      const arrived = arrivals[create.taskId];
      if (arrived === undefined) missing++;
      else delays.push(arrived - create.answeredAt);
    }
    return {
      creates: creates.length,
      missing,
      createMs: summary(creates.map((c) => c.answeredAt - c.sentAt)),
      answerToArrivalMs: summary(delays),
      serverCpuPercent: Math.round((cpu / SECONDS) * 100),
    };
  } finally {
    await server?.stop();
    await database.drop();
  }
}

const sink = await startSink();
const result = {
  root,
  database: DATABASE_URL ? 'postgresql' : 'sqlite',
  rate: RATE,
  seconds: SECONDS,
  connections: CONNECTIONS,
  node: process.version,
  cpus: os.cpus().length,
  loadAverageStart: loadAverage(),
  rounds: [],
};
try {
  for (let round = 0; round < ROUNDS; round++) result.rounds.push(await latencyRound(sink, round));
  result.loadAverageEnd = loadAverage();
} finally {
  sink.stop();
}
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
