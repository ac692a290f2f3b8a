// Full-text search at size (issue 29): seeds tasks, comments and turns straight into the database (bulk
// inserts; the search triggers index them as they go), then times GET /api/ext/v1/search through
// app.inject for one-word, two-word and phrase queries (p50/p95), and reports the index's disk size
// beside the data's. A benchmark, not a test: nothing here fails on a number.
//
// Text: pseudo-words from a 5 000-word vocabulary drawn with Zipf's law (s = 1), so a few words are in
// most texts and most words in few. Query words are drawn uniformly from ranks 50..4999 (what people
// search for); the ten most common words are timed apart, as the worst case (no stop words here).
//
//   npx tsc -p tsconfig.build.json && node bench/search.mjs               SQLite
//   BENCH_DATABASE_URL=postgres://... node bench/search.mjs               PostgreSQL (a throwaway schema)
//   BENCH_SCALE=1 (100 000 tasks, 300 000 comments, 1 000 000 turns)  BENCH_QUERIES=200
//   BENCH_KEEP=1: keep the seeded database (its data dir or schema is printed at the end)
//   BENCH_REUSE=<that data dir | that schema> (same BENCH_SCALE): no seeding; pending migrations are
//     applied to the seeded data (timed), then the same queries as the seeding run are timed. The
//     database is kept. A full-size seed takes 20-25 minutes; this re-runs the queries in seconds.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { pino } from 'pino';
import { buildApp } from '../dist/app.js';
import { loadConfig } from '../dist/config.js';
import { CLI_OPERATOR } from '../dist/domain/actor.js';
import { createRuntime } from '../dist/runtime.js';
import { BENCH_SECRET_KEY, onPostgres, schemaUrl } from './support/postgres-schema.mjs';

const scale = Number(process.env.BENCH_SCALE ?? 1);
const queries = Number(process.env.BENCH_QUERIES ?? 200);
const databaseUrl = process.env.BENCH_DATABASE_URL ?? null;
const reuse = process.env.BENCH_REUSE ?? null;
const keep = Boolean(process.env.BENCH_KEEP) || reuse !== null;
const counts = {
  boards: 10,
  tasks: Math.round(100_000 * scale),
  comments: Math.round(300_000 * scale),
  turns: Math.round(1_000_000 * scale),
};
const dataDir =
  reuse !== null && !databaseUrl ? reuse : fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-search-bench-'));

// Deterministic text.
let seed = 42;
/** mulberry32: 32-bit integer arithmetic only (a float LCG loses bits and can cycle). */
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
};
const SYLLABLES = 'ka to ri ne mo su la vi den bar qu ex lo pra mi zo tek nu sal fi gor wen ish ul pa'.split(
  ' ',
);
const vocabulary = [];
const used = new Set();
while (vocabulary.length < 5000) {
  const n = 2 + Math.floor(random() * 3);
  let word = '';
  for (let i = 0; i < n; i++) word += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
  if (!used.has(word)) {
    used.add(word);
    vocabulary.push(word);
  }
}
const cumulative = [];
let total = 0;
for (let rank = 0; rank < vocabulary.length; rank++) {
  total += 1 / (rank + 1);
  cumulative.push(total);
}
function zipfWord() {
  const x = random() * total;
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return vocabulary[lo];
}
const words = (min, max) => {
  const n = min + Math.floor(random() * (max - min + 1));
  return Array.from({ length: n }, zipfWord).join(' ');
};
const NOW = '2026-11-27T10:00:00.000Z';

let schema = null;
let url = null;
if (databaseUrl) {
  schema = reuse ?? `bench_search_${process.pid}`;
  if (reuse === null) await onPostgres(databaseUrl, `create schema ${schema}`);
  const u = new URL(schemaUrl(databaseUrl, schema));
  // The server's CPU per query is read from its backends' /proc/<pid>/schedstat (same machine only).
  u.searchParams.set('application_name', 'laneboard-search-bench');
  url = u.toString();
}
const config = {
  ...loadConfig({ LANEBOARD_DATA_DIR: dataDir }),
  databaseUrl: url,
  secretKey: BENCH_SECRET_KEY,
};
const log = pino({ level: 'silent' });

// Migrate (the search index included), then seed with the driver itself. Reusing a seeded database,
// the migrations this code has and the seeding run did not are applied to the seeded rows.
const migrateStarted = performance.now();
await (await createRuntime(config, { migrations: 'apply', log })).close();
if (reuse !== null) {
  console.log(
    `migrations applied to the seeded data in ${((performance.now() - migrateStarted) / 1000).toFixed(1)} s`,
  );
}

/** Rows of one table, written in batches by `write(rows)`. */
async function seedTable(name, count, makeRow, write) {
  const started = performance.now();
  let batch = [];
  for (let i = 0; i < count; i++) {
    batch.push(makeRow(i));
    if (batch.length === 5000) {
      await write(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await write(batch);
  const seconds = (performance.now() - started) / 1000;
  console.log(`seeded ${count} ${name} in ${seconds.toFixed(1)} s (${Math.round(count / seconds)}/s)`);
}

const boardOf = (taskIndex) => `brd_${taskIndex % counts.boards}`;
const taskRow = (i) => [
  `task_${i}`,
  boardOf(i),
  `lane_${i % counts.boards}`,
  `s${i}`,
  words(3, 8),
  words(15, 50),
  i,
];
const commentRow = (i) => {
  const task = i % counts.tasks;
  return [`cmt_${i}`, `task_${task}`, boardOf(task), words(8, 40)];
};
const turnRow = (i) => {
  const task = i % counts.tasks;
  return [`turn_${i}`, `task_${task}`, boardOf(task), `m${i}`, words(10, 40)];
};

/**
 * The seeded tables, in the order their text is drawn: `row(i)` gives the values of `columns` (with
 * their PostgreSQL types), `fixed` the values that are the same in every row.
 */
const SEEDED = [
  {
    table: 'tasks',
    count: counts.tasks,
    row: taskRow,
    columns: {
      id: 'text',
      board_id: 'text',
      lane_id: 'text',
      short_id: 'text',
      title: 'text',
      description: 'text',
      rank: 'float8',
    },
    fixed: { created_at: NOW, updated_at: NOW },
  },
  {
    table: 'comments',
    count: counts.comments,
    row: commentRow,
    columns: { id: 'text', task_id: 'text', board_id: 'text', body: 'text' },
    fixed: { author_name: 'Bench', author_source: 'api', created_at: NOW },
  },
  {
    table: 'turns',
    count: counts.turns,
    row: turnRow,
    columns: { id: 'text', task_id: 'text', board_id: 'text', source_id: 'text', content: 'text' },
    fixed: { source: 'claude', role: 'assistant', captured_at: NOW, created_at: NOW },
  },
];

/** A seeded table's `insert into <table> (<columns>, <fixed columns>)`, and its fixed values as literals. */
const insertInto = ({ table, columns, fixed }) => [
  `insert into ${table} (${[...Object.keys(columns), ...Object.keys(fixed)].join(', ')})`,
  Object.values(fixed)
    .map((value) => `'${value}'`)
    .join(', '),
];

/**
 * Writes with the driver itself: `exec(sql, params)` (? placeholders), `insertMany(seeded)` (a function
 * that writes a batch of rows of a SEEDED table) and `finish()` (statistics, then the connection closed).
 */
async function postgresWriter() {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const numbered = (sql) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  return {
    exec: (sql, params) => client.query(numbered(sql), params),
    insertMany(seeded) {
      const [insert, fixed] = insertInto(seeded);
      const arrays = Object.values(seeded.columns).map((type, i) => `$${i + 1}::${type}[]`);
      const sql = `${insert} select *, ${fixed} from unnest(${arrays.join(', ')})`;
      return (rows) =>
        client.query(
          sql,
          rows[0].map((_, column) => rows.map((row) => row[column])),
        );
    },
    async finish() {
      await client.query('vacuum analyze');
      await client.end();
    },
  };
}

function sqliteWriter() {
  const db = new Sqlite(path.join(dataDir, 'laneboard.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  return {
    exec: async (sql, params) => db.prepare(sql).run(params),
    insertMany(seeded) {
      const [insert, fixed] = insertInto(seeded);
      const values = Object.keys(seeded.columns).map(() => '?');
      const statement = db.prepare(`${insert} values (${values.join(', ')}, ${fixed})`);
      const run = db.transaction((rows) => {
        for (const row of rows) statement.run(row);
      });
      return async (rows) => run(rows);
    },
    async finish() {
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.exec('analyze');
      db.close();
    },
  };
}

const seedStarted = performance.now();
if (reuse !== null) {
  // The rows' text is drawn again (not written) so the queries below are the seeding run's.
  for (const { count, row } of SEEDED) for (let i = 0; i < count; i++) row(i);
} else {
  const writer = databaseUrl ? await postgresWriter() : sqliteWriter();
  for (let b = 0; b < counts.boards; b++) {
    await writer.exec('insert into boards (id, name, created_at, updated_at) values (?, ?, ?, ?)', [
      `brd_${b}`,
      `Board ${b}`,
      NOW,
      NOW,
    ]);
    await writer.exec(
      `insert into lanes (id, board_id, name, position, created_at, updated_at) values (?, ?, 'Todo', 0, ?, ?)`,
      [`lane_${b}`, `brd_${b}`, NOW, NOW],
    );
  }
  for (const seeded of SEEDED)
    await seedTable(seeded.table, seeded.count, seeded.row, writer.insertMany(seeded));
  await writer.finish();
}
if (reuse === null) console.log(`seeding took ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`);

const runtime = await createRuntime(config, { migrations: 'require', log });
const app = await buildApp({
  database: runtime.database,
  services: runtime.services,
  rateLimit: { max: 1_000_000_000, windowMs: 60_000 },
});
await app.ready();
const key = await runtime.services.apiKeys.createKey(CLI_OPERATOR, {
  name: 'bench',
  allBoards: true,
  grants: [],
});

const queryWord = () => vocabulary[50 + Math.floor(random() * (vocabulary.length - 50))];
const commonWord = () => vocabulary[Math.floor(random() * 10)];
const rankOf = new Map(vocabulary.map((word, rank) => [word, rank]));
/**
 * Two words drawn as the seeded texts draw them (so phrases match something), at least one of them
 * not among the 50 most common: a phrase of two very common words is the worst case of any index.
 */
function phrase() {
  for (;;) {
    const [a, b] = [zipfWord(), zipfWord()];
    if (rankOf.get(a) >= 50 || rankOf.get(b) >= 50) return `"${a} ${b}"`;
  }
}
const KINDS = {
  'one word': () => queryWord(),
  'two words': () => `${queryWord()} ${queryWord()}`,
  phrase: () => phrase(),
  'one common word (worst case)': () => commonWord(),
};

/** PostgreSQL on this machine: CPU milliseconds its backends serving the bench have run, so far. */
let serverCpu = async () => null;
let closeSide = async () => {};
if (databaseUrl) {
  const side = new pg.Client({ connectionString: databaseUrl });
  await side.connect();
  serverCpu = async () => {
    const { rows } = await side.query(
      `select pid from pg_stat_activity where application_name = 'laneboard-search-bench'`,
    );
    let ns = 0;
    for (const { pid } of rows) {
      try {
        ns += Number(fs.readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        return null; // not on this machine, or no schedstat
      }
    }
    return ns / 1e6;
  };
  closeSide = () => side.end();
}

/**
 * CPU milliseconds of this process's main thread: the request and, on SQLite, the whole query
 * (better-sqlite3 runs on it). process.cpuUsage() also counts the app's other threads (the webhook
 * dispatcher, the WAL checkpointer), whose periodic work lands in whichever query is running and grows
 * with wall time on a loaded machine. Linux's schedstat; elsewhere the whole process.
 */
const mainThreadStat = `/proc/self/task/${process.pid}/schedstat`;
const mainThreadCpu = fs.existsSync(mainThreadStat)
  ? () => Number(fs.readFileSync(mainThreadStat, 'utf8').split(' ')[0]) / 1e6
  : () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1000;
    };
const loadBefore = os.loadavg();
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const results = {};
for (const [name, make] of Object.entries(KINDS)) {
  const times = [];
  const cpu = [];
  const server = [];
  let found = 0;
  for (let i = 0; i < queries; i++) {
    const q = make();
    const serverBefore = await serverCpu();
    const started = performance.now();
    const cpuBefore = mainThreadCpu();
    const res = await app.inject({
      method: 'GET',
      url: `/api/ext/v1/search?${new URLSearchParams({ q })}`,
      headers: { authorization: `Bearer ${key.key}` },
    });
    times.push(performance.now() - started);
    cpu.push(mainThreadCpu() - cpuBefore);
    const serverAfter = serverBefore === null ? null : await serverCpu();
    if (serverAfter !== null) server.push(serverAfter - serverBefore);
    if (res.statusCode !== 200) throw new Error(`search ${q}: ${res.statusCode} ${res.body}`);
    if (res.json().data.length > 0) found++;
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  server.sort((a, b) => a - b);
  results[name] = {
    p50: percentile(times, 50).toFixed(1),
    p95: percentile(times, 95).toFixed(1),
    max: times.at(-1).toFixed(1),
    // This process's main thread's CPU time (SQLite: the whole query; PostgreSQL: the client's share).
    'cpu p50': percentile(cpu, 50).toFixed(1),
    'cpu p95': percentile(cpu, 95).toFixed(1),
    ...(server.length === queries
      ? {
          // PostgreSQL's own CPU time for the query (its backends), beside this process's share.
          'server cpu p50': percentile(server, 50).toFixed(1),
          'server cpu p95': percentile(server, 95).toFixed(1),
        }
      : {}),
    withResults: `${found}/${queries}`,
  };
}

async function sizes() {
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query(`select
      pg_total_relation_size('search_docs') as index,
      pg_total_relation_size('tasks') + pg_total_relation_size('comments') + pg_total_relation_size('turns') as data`);
    await client.end();
    return { index: Number(rows[0].index), data: Number(rows[0].data) };
  }
  const db = new Sqlite(path.join(dataDir, 'laneboard.sqlite'), { readonly: true });
  const rows = db.prepare('select name, sum(pgsize) as bytes from dbstat group by name').all();
  db.close();
  let index = 0;
  let data = 0;
  for (const { name, bytes } of rows) {
    if (name.startsWith('search_') || name.startsWith('sqlite_autoindex_search_docs')) index += bytes;
    else if (
      /^(tasks|comments|turns|sqlite_autoindex_(tasks|comments|turns))/.test(name) ||
      /^(tasks|comments|turns)_/.test(name)
    )
      data += bytes;
  }
  return { index, data };
}
const size = await sizes();
const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

console.log(
  `\n${databaseUrl ? 'PostgreSQL' : 'SQLite'}, scale ${scale}: ${counts.tasks} tasks, ${counts.comments} comments, ${counts.turns} turns; ${queries} queries each (ms)`,
);
console.table(results);
const loads = (l) => l.map((x) => x.toFixed(1)).join(' ');
console.log(`load average ${loads(loadBefore)} before the queries, ${loads(os.loadavg())} after`);
console.log(
  `index ${mib(size.index)} beside data ${mib(size.data)} (tasks, comments, turns with their indexes)`,
);

await app.close();
await runtime.close();
await closeSide();
if (schema && !keep) await onPostgres(databaseUrl, `drop schema ${schema} cascade`);
if (keep) console.log(`kept ${schema ?? dataDir}`);
// On PostgreSQL the data dir holds nothing seeded.
if (!keep || schema) fs.rmSync(dataDir, { recursive: true, force: true });
