// Webhook delivery benchmark (SQLite or PostgreSQL, one or more instances' dispatchers, receiver in a
// separate process on 127.0.0.1).
//
//   npm run build && node bench/webhook-delivery.mjs
//   BENCH_DELIVERIES=20000 BENCH_RATE=200 BENCH_SECONDS=10 node bench/webhook-delivery.mjs
//   BENCH_DATABASE_URL=postgres://... node bench/webhook-delivery.mjs      PostgreSQL, a fresh schema
//   BENCH_DATABASE_URL=postgres://... BENCH_INSTANCES=2 node ...          + dispatchers in other processes
//
// 1. Throughput: BENCH_DELIVERIES deliveries are queued through the real domain services and outbox
//    (4 webhooks, each event matches all of them) while the dispatcher is stopped; then the dispatcher
//    starts and the time until the receiver has them all gives deliveries per second.
// 2. Latency: events are made at BENCH_RATE per second for BENCH_SECONDS with the dispatcher running;
//    the receiver measures, per delivery, the time from the event's timestamp (taken inside the
//    committing transaction) to the request's arrival: the commit-to-first-attempt delay.
// Prints one JSON object.
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_SECRET_KEY, throwawaySchema } from './support/postgres-schema.mjs';
import { percentile } from './support/stats.mjs';
import { startSink } from './support/webhook-receiver.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = (file) => import(path.join(root, 'dist', file));
if (!fs.existsSync(path.join(root, 'dist/main.js'))) {
  process.stderr.write('Run `npm run build` first.\n');
  process.exit(2);
}

// This process stands in for the server: its heap is sized as serve() sizes the server's (main.ts;
// BENCH_HEAP_SIZING=0 leaves V8's defaults, for comparison). Its semi-spaces may grow once set up.
const { sizeHeap } = await dist('lib/heap-sizing.js');
const { SERVER_HEAP } = await dist('main.js');
const heap = process.env.BENCH_HEAP_SIZING === '0' ? null : sizeHeap(SERVER_HEAP);
const { openDatabase } = await dist('db/database.js');
const { migrateToLatest } = await dist('db/migrate.js');
const { SecretBox } = await dist('lib/secret-box.js');
const { systemClock } = await dist('lib/time.js');
const { createServices } = await dist('services.js');
const { WebhookFanOut } = await dist('webhooks/outbox.js');
const { BoardWebhooks } = await dist('webhooks/board-webhooks.js');
const { DatabaseActivityRecorder } = await dist('domain/activities/activity-recorder.js');
const { WebhookDispatcher } = await dist('webhooks/webhook-dispatcher.js');
const { ThreadedDispatcher } = await dist('webhooks/dispatcher-thread.js');

const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 20_000);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WEBHOOKS = 4;
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? null;
const INSTANCES = Number(process.env.BENCH_INSTANCES ?? 1);
// On SQLite the server runs its dispatcher on its own thread (dispatcher-thread.ts); BENCH_THREAD=0 runs
// it on this process's event loop instead, as PostgreSQL servers do.
const THREAD = !DATABASE_URL && process.env.BENCH_THREAD !== '0';
if (INSTANCES > 1 && !DATABASE_URL) {
  process.stderr.write('BENCH_INSTANCES > 1 needs BENCH_DATABASE_URL: SQLite is served by one process.\n');
  process.exit(2);
}
const OPERATOR = { kind: 'system', origin: 'cli', name: 'CLI' };

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Another instance's dispatcher in its own process (bench/webhook-dispatcher-worker.mjs), stopped. */
function startWorker(databaseUrl) {
  const child = fork(
    path.join(root, 'bench/webhook-dispatcher-worker.mjs'),
    [databaseUrl, BENCH_SECRET_KEY],
    {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const ask = (message, answer) =>
    new Promise((resolve) => {
      const onMessage = (reply) => {
        if (reply !== answer) return;
        child.off('message', onMessage);
        resolve();
      };
      child.on('message', onMessage);
      if (message) child.send(message);
    });
  return ask(null, 'ready').then(() => ({
    start: () => ask('start', 'started'),
    stop: () => ask('stop', 'stopped'),
  }));
}

/**
 * A fresh database (SQLite, or a PostgreSQL schema) with services, an all-boards key, `webhooks`
 * webhooks and stopped dispatchers: this process's, and BENCH_INSTANCES - 1 in other processes.
 */
async function setUp(sinkPort, webhooks) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-webhook-bench-'));
  const schema = DATABASE_URL
    ? await throwawaySchema(DATABASE_URL, `bench_webhook_${process.pid}_${Date.now()}`)
    : null;
  const database = openDatabase({ databaseUrl: schema?.url ?? null, dataDir });
  await migrateToLatest(database);
  const workers = schema
    ? await Promise.all(Array.from({ length: INSTANCES - 1 }, () => startWorker(schema.url)))
    : [];
  const secrets = new SecretBox(BENCH_SECRET_KEY);
  const holder = { dispatcher: null };
  const wake = () => holder.dispatcher?.wake();
  const services = await createServices(
    {
      database,
      secrets,
      clock: systemClock,
      activities: new DatabaseActivityRecorder(systemClock, [
        new WebhookFanOut(wake, new BoardWebhooks(database)),
      ]),
    },
    { webhooks: { allowHttp: true, allowPrivate: true, onDeliveriesQueued: wake } },
  );
  const key = await services.apiKeys.createKey(OPERATOR, { name: 'bench', allBoards: true, grants: [] });
  const actor = {
    kind: 'api_key',
    origin: 'api',
    keyId: key.id,
    name: 'bench',
    allBoards: true,
    grants: new Map(),
  };
  for (let i = 0; i < webhooks; i++) {
    await services.webhooks.createWebhook(actor, {
      url: `http://127.0.0.1:${sinkPort}/hook-${i}`,
      events: ['*'],
    });
  }
  const settings = {
    timeoutMs: 10_000,
    retryDelaysMs: [60_000, 300_000, 1_800_000, 7_200_000],
    allowPrivate: true,
    ...(process.env.BENCH_PER_HOST ? { perHostConcurrency: Number(process.env.BENCH_PER_HOST) } : {}),
  };
  const dispatcher = THREAD
    ? new ThreadedDispatcher(
        { dataDir, masterKey: BENCH_SECRET_KEY, ...settings },
        { warn: (d, m) => console.error(m, d), error: (d, m) => console.error(m, d) },
        async () => true,
      )
    : new WebhookDispatcher({ database, secrets, clock: systemClock, ...settings });
  return {
    services,
    actor,
    database,
    dispatcher,
    start: async () => {
      holder.dispatcher = dispatcher;
      dispatcher.start();
      await Promise.all(workers.map((worker) => worker.start()));
    },
    async close() {
      await Promise.all([dispatcher.stop(), ...workers.map((worker) => worker.stop())]);
      await database.close();
      await schema?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The receiver's stats once it has `count` deliveries, or after `timeoutMs`. */
const waitForDeliveries = (sink, count, timeoutMs) =>
  sink.waitFor(count, { timeoutMs, message: 'stats', pollMs: 20 });

const sink = await startSink();
heap?.allowYoungGrowth();
const result = {
  dialect: DATABASE_URL ? 'postgres' : 'sqlite',
  instances: INSTANCES,
  dispatcherThread: THREAD,
  heapSizing: heap !== null,
  node: process.version,
  cpus: os.cpus().length,
};
try {
  // 1. Throughput.
  {
    const bench = await setUp(sink.port, WEBHOOKS);
    const events = Math.ceil(DELIVERIES / WEBHOOKS);
    for (let i = 0; i < events; i++)
      await bench.services.boards.createBoard(bench.actor, { name: `Board ${i}` });
    const total = events * WEBHOOKS;
    await sink.ask('reset');
    const rssBefore = process.memoryUsage().rss;
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    await bench.start();
    const stats = await waitForDeliveries(sink, total, 120_000);
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    // Results are written in batches, by every instance: wait (bounded) until all are recorded.
    const countDelivered = async () =>
      Number(
        (
          await bench.database.kysely
            .selectFrom('webhook_deliveries')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('status', '=', 'delivered')
            .executeTakeFirst()
        ).n,
      );
    let delivered = await countDelivered();
    for (const deadline = Date.now() + 30_000; delivered < total && Date.now() < deadline; ) {
      await sleep(20);
      delivered = await countDelivered();
    }
    const recordedSeconds = (performance.now() - started) / 1000;
    result.throughput = {
      deliveries: total,
      received: stats.distinct,
      recordedDelivered: delivered,
      seconds: Number(seconds.toFixed(2)),
      deliveriesPerSecond: Math.round(stats.distinct / seconds),
      secondsUntilAllRecorded: Number(recordedSeconds.toFixed(2)),
      // This process's CPU time while sending (the dispatcher's, and the polling of the receiver).
      cpuUsPerDelivery: Math.round((cpu.user + cpu.system) / stats.distinct),
      // Resident memory when the backlog was queued and the peak since: the held deliveries are bounded,
      // so the difference should not grow with BENCH_DELIVERIES.
      rssBeforeMb: Math.round(rssBefore / 2 ** 20),
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    };
    await bench.close();
  }

  // 2. Commit-to-first-attempt delay at a steady event rate.
  {
    const bench = await setUp(sink.port, 1);
    await bench.start();
    // The dispatcher (its thread too) is running before the first event: a server's has been for long.
    await sleep(Number(process.env.BENCH_SETTLE_MS ?? 1000));
    /** Events at RATE per second for `count` events; returns the seconds it took. */
    const paced = async (count, name) => {
      const started = performance.now();
      for (let i = 0; i < count; i++) {
        const due = started + (i * 1000) / RATE;
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        await bench.services.boards.createBoard(bench.actor, { name: `${name} ${i}` });
      }
      return (performance.now() - started) / 1000;
    };
    // A running server's code is compiled and optimised; the first second at the rate, not counted,
    // brings this one there (BENCH_WARMUP_SECONDS=0 counts from a cold start).
    const warmUp = Math.round(RATE * Number(process.env.BENCH_WARMUP_SECONDS ?? 1));
    if (warmUp > 0) {
      await paced(warmUp, 'Warm-up');
      await waitForDeliveries(sink, warmUp, 30_000);
    }
    await sink.ask('reset');
    const events = RATE * SECONDS;
    const elapsed = await paced(events, 'Paced');
    const stats = await waitForDeliveries(sink, events, 30_000);
    if (process.env.BENCH_DEBUG) {
      // Delays in arrival order, as the worst of each run of 100: shows when the slow ones happened.
      const worst = [];
      for (let i = 0; i < stats.delays.length; i += 100)
        worst.push(Math.max(...stats.delays.slice(i, i + 100)));
      process.stderr.write(`worst per 100 in arrival order: ${worst.join(' ')}\n`);
    }
    const delays = [...stats.delays].sort((a, b) => a - b);
    result.latency = {
      events,
      eventsPerSecond: Math.round(events / elapsed),
      received: stats.distinct,
      p50Ms: percentile(delays, 50),
      p99Ms: percentile(delays, 99),
      maxMs: delays[delays.length - 1],
    };
    await bench.close();
  }
} finally {
  sink.stop();
}
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
