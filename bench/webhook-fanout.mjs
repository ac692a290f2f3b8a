// Webhook fan-out benchmark (issue #14): the built server, on SQLite, against a bare undici client.
//
//   npm run build && node bench/webhook-fanout.mjs
//   BENCH_WEBHOOKS=20 BENCH_TASKS=500 BENCH_ROUNDS=3 node bench/webhook-fanout.mjs
//   BENCH_SERVER_ARGS=--cpu-prof node bench/webhook-fanout.mjs      profile the server (written to its cwd)
//
// 1. Fan-out: `node dist/main.js` with LANEBOARD_WEBHOOK_ALLOW_PRIVATE/HTTP, a key made by the CLI,
//    BENCH_WEBHOOKS webhooks (events ["*"]) to one receiver process on 127.0.0.1 (bench/webhook-sink.mjs),
//    then BENCH_TASKS tasks created through the API all at once (BENCH_CREATE_CONNECTIONS connections);
//    timed from the first create until the receiver has every delivery (webhooks × tasks).
// 2. Bare client: beside it, an undici Agent in this process sends as many HMAC-signed bodies of the
//    same size, with the same headers, to the same receiver, at most BENCH_PER_HOST in flight and as
//    many connections (the server's per-host limit); timed the same way at the receiver.
// Rounds alternate which side runs first. Prints one JSON object: both rates, their ratio, the server's
// peak RSS (VmHWM) and the load average.
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent } from 'undici';
import { cpuSeconds, loadAverage, peakRssMb } from './support/proc.mjs';
import { throwawayLaneboard } from './support/server-process.mjs';
import { median } from './support/stats.mjs';
import { startSink, WEBHOOK_ENV } from './support/webhook-receiver.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (!fs.existsSync(path.join(root, 'dist/main.js'))) {
  process.stderr.write('Run `npm run build` first.\n');
  process.exit(2);
}

const WEBHOOKS = Number(process.env.BENCH_WEBHOOKS ?? 20);
const TASKS = Number(process.env.BENCH_TASKS ?? 500);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PER_HOST = Number(process.env.BENCH_PER_HOST ?? 16);
const CREATE_CONNECTIONS = Number(process.env.BENCH_CREATE_CONNECTIONS ?? 32);
const PORT = Number(process.env.BENCH_PORT ?? 3000 + (process.pid % 20000));
const SERVER_ARGS = (process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean);
const TOTAL = WEBHOOKS * TASKS;

async function waitForReceiver(sink, count, timeoutMs) {
  const { distinct } = await sink.waitFor(count, { timeoutMs });
  if (distinct < count) throw new Error(`receiver has ${distinct} of ${count} deliveries`);
}

/** One round through the server: a fresh data directory, webhooks, then TASKS creates at once. */
async function fanOutRound(sink) {
  const server = await throwawayLaneboard({
    root,
    port: PORT,
    name: 'fanout',
    extraEnv: WEBHOOK_ENV,
    nodeArgs: SERVER_ARGS,
    connections: CREATE_CONNECTIONS,
  });
  const { child, api } = server;
  try {
    const board = await api('POST', '/boards', { name: 'Fan-out' });
    const lane = await api('POST', `/boards/${board.id}/lanes`, { name: 'Inbox' });
    for (let i = 0; i < WEBHOOKS; i++)
      await api('POST', '/webhooks', { url: `http://127.0.0.1:${sink.port}/hook-${i}`, events: ['*'] });
    await sink.ask('reset');
    const cpuBefore = cpuSeconds(child.pid);
    const started = performance.now();
    await Promise.all(
      Array.from({ length: TASKS }, (_, i) =>
        api('POST', `/boards/${board.id}/tasks`, { title: `Fan-out task ${i}`, laneId: lane.id }),
      ),
    );
    const createdAfter = performance.now() - started;
    const { distinct: deliveredWhenCreated } = await sink.ask('count');
    await waitForReceiver(sink, TOTAL, 120_000);
    const seconds = (performance.now() - started) / 1000;
    return {
      deliveriesPerSecond: Math.round(TOTAL / seconds),
      seconds: Number(seconds.toFixed(2)),
      tasksCreatedAfterMs: Math.round(createdAfter),
      deliveredWhenCreated,
      // The server's CPU time over the run (the creates included), per delivery.
      serverCpuUsPerDelivery: Math.round(((cpuSeconds(child.pid) - cpuBefore) * 1e6) / TOTAL),
      serverPeakRssMb: peakRssMb(child.pid),
    };
  } finally {
    await server.stop();
  }
}

/** The same number of signed bodies of the same size, sent by a bare undici client. */
async function bareRound(sink, sample) {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const agent = new Agent({ connections: PER_HOST });
  await sink.ask('reset');
  let next = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const worker = async () => {
    while (next < TOTAL) {
      const n = next++;
      const id = `dlv_bare${n}_${started}`;
      const body = sample.replace(/"id":"evt_[^"]*"/, `"id":"evt_bare${n}"`);
      const timestamp = Math.floor(Date.now() / 1000);
      const res = await agent.request({
        origin: `http://127.0.0.1:${sink.port}`,
        path: `/hook-${n % WEBHOOKS}`,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Service-Webhooks/1.0',
          'x-service-event': 'task.created',
          'x-service-delivery': id,
          'x-service-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
          'webhook-id': id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`,
        },
        body,
      });
      await res.body.dump();
    }
  };
  await Promise.all(Array.from({ length: PER_HOST }, worker));
  await waitForReceiver(sink, TOTAL, 120_000);
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  await agent.close();
  return {
    deliveriesPerSecond: Math.round(TOTAL / seconds),
    seconds: Number(seconds.toFixed(2)),
    // This process's CPU time (the client's, and the bench's polling of the receiver), per delivery.
    cpuUsPerDelivery: Math.round((cpu.user + cpu.system) / TOTAL),
  };
}

const sink = await startSink();
const result = {
  webhooks: WEBHOOKS,
  tasks: TASKS,
  deliveries: TOTAL,
  perHost: PER_HOST,
  node: process.version,
  cpus: os.cpus().length,
  loadAverageStart: loadAverage(),
  rounds: [],
};
try {
  let sample = null;
  for (let round = 0; round < ROUNDS; round++) {
    const entry = {};
    const runFanOut = async () => {
      entry.laneboard = await fanOutRound(sink);
      sample ??= (await sink.ask('sample')).sample;
    };
    // The bare client needs a body as the server sends it: the first round always starts with the server.
    if (round % 2 === 0 || !sample) {
      await runFanOut();
      entry.bare = await bareRound(sink, sample);
    } else {
      entry.bare = await bareRound(sink, sample);
      await runFanOut();
    }
    entry.ratio = Number((entry.laneboard.deliveriesPerSecond / entry.bare.deliveriesPerSecond).toFixed(2));
    result.rounds.push(entry);
  }
  result.bodyBytes = Buffer.byteLength(sample);
  result.laneboardDeliveriesPerSecond = median(result.rounds.map((r) => r.laneboard.deliveriesPerSecond));
  result.bareDeliveriesPerSecond = median(result.rounds.map((r) => r.bare.deliveriesPerSecond));
  result.ratio = median(result.rounds.map((r) => r.ratio));
  result.serverPeakRssMb = Math.max(...result.rounds.map((r) => r.laneboard.serverPeakRssMb));
  result.loadAverageEnd = loadAverage();
} finally {
  sink.stop();
}
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
