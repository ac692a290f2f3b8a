// How long the webhook dispatcher thread's connection waits for SQLite's write lock while the serving
// connection is busy (issue 25, item 9): the mechanism behind late deliveries, without HTTP.
//
//   npm run build && node bench/webhook-lock-turns.mjs
//   BENCH_ROOT=/path/to/other/checkout node bench/webhook-lock-turns.mjs      another build (A/B runs)
//   BENCH_SECONDS=5 BENCH_WRITERS=16 BENCH_CLAIM_EVERY_MS=2 node bench/webhook-lock-turns.mjs   # the defaults
//
// The serving connection (openDatabase: the server's dialect, whose BEGIN waits without blocking the
// event loop) runs BENCH_WRITERS loops of back-to-back write transactions (an insert and a read, as a
// request's would), so one is always queued behind the one holding the lock: a burst of requests. A
// worker thread with the dispatcher's connection (openSideConnection) runs a small write transaction
// every BENCH_CLAIM_EVERY_MS, as claims do, and times each from its start to its commit. Prints one JSON
// object: the side connection's waits (p50 / p99 / max) and the serving connection's transactions per
// second (what the side's turns cost it).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { loadAverage } from './support/proc.mjs';

const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const root = path.resolve(process.env.BENCH_ROOT ?? here);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const WRITERS = Number(process.env.BENCH_WRITERS ?? 16);
const CLAIM_EVERY_MS = Number(process.env.BENCH_CLAIM_EVERY_MS ?? 2);
const dist = (file) => import(path.join(root, 'dist', file));

const { openDatabase } = await dist('db/database.js');
const { sql } = await import('kysely');
const lockWait = await dist('db/sqlite-lock-wait.js');
// Absent before the serving connection gave the side connection its turn.
const waitingFlag = lockWait.SIDE_WRITER_WAITING?.buffer;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-lock-turns-'));
const file = path.join(dataDir, 'laneboard.sqlite');
const database = openDatabase({ databaseUrl: null, dataDir, sqliteFile: file });
await sql`create table serving (id integer primary key, body text not null)`.execute(database.kysely);
await sql`create table side (id integer primary key, n integer not null)`.execute(database.kysely);
await sql`insert into side (id, n) values (1, 0)`.execute(database.kysely);

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const { openSideConnection } = await import(workerData.module);
  const { sql } = await import('kysely');
  // Since the connections share their lock releases (LockReleases), the side connection takes them.
  const { LockReleases } = await import(workerData.lockModule);
  const db = openSideConnection(
    workerData.file,
    LockReleases && workerData.releases ? new LockReleases(workerData.releases) : workerData.waitingFlag,
  );
  const waits = [];
  let refused = 0;
  const until = performance.now() + workerData.seconds * 1000;
  while (performance.now() < until) {
    const started = performance.now();
    try {
      await db.kysely.transaction().execute((trx) => sql\`update side set n = n + 1 where id = 1\`.execute(trx));
    } catch (error) {
      if (error.code !== 'SQLITE_BUSY') throw error;
      refused++;
    }
    waits.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, workerData.everyMs));
  }
  await db.close();
  parentPort.postMessage({ waits, refused });
})();
`;

const worker = new Worker(WORKER, {
  eval: true,
  workerData: {
    module: path.join(root, 'dist/db/sqlite-side-connection.js'),
    lockModule: path.join(root, 'dist/db/sqlite-lock-wait.js'),
    releases: database.sqliteLockReleases,
    file,
    waitingFlag,
    seconds: SECONDS,
    everyMs: CLAIM_EVERY_MS,
  },
});
const sideWaits = new Promise((resolve, reject) => {
  worker.once('message', resolve);
  worker.once('error', reject);
});

let servingTransactions = 0;
let running = true;
const writer = async (n) => {
  while (running) {
    await database.kysely.transaction().execute(async (trx) => {
      await sql`insert into serving (body) values (${`request ${n}`})`.execute(trx);
      await sql`select count(*) from side`.execute(trx);
    });
    servingTransactions++;
    // The next request of this "connection" arrives in a later turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
  }
};
const started = performance.now();
const writers = Array.from({ length: WRITERS }, (_, n) => writer(n));
const { waits, refused } = await sideWaits;
running = false;
await Promise.all(writers);
const seconds = (performance.now() - started) / 1000;
await database.close();
fs.rmSync(dataDir, { recursive: true, force: true });

const sorted = [...waits].sort((a, b) => a - b);
const at = (p) =>
  Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] * 10) / 10;
process.stdout.write(
  `${JSON.stringify({
    root,
    turnTaking: waitingFlag !== undefined,
    sideTransactions: sorted.length,
    // Refused after the 5 s busy time-out: a claim that never got the lock.
    sideRefused: refused,
    sideMs: { p50: at(50), p90: at(90), p99: at(99), max: at(100) },
    servingTransactionsPerSecond: Math.round(servingTransactions / seconds),
    loadAverage: loadAverage(),
  })}\n`,
);
