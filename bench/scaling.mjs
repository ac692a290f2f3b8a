// Scaling benchmark: do the hot reads stay flat as the data grows? Times the real repository queries
// (from dist/) on a fresh database at growing sizes: a page of turns after a cursor (1 k → 1 M turns on
// one task), task detail and a lane's task list (100 → 10 000 tasks on one board), and the delivery
// claim and the recording of results (1 k → 1 M delivery rows, nearly all finished history).
//
//   npm run build && node bench/scaling.mjs                      SQLite
//   BENCH_DATABASE_URL=postgres://... node bench/scaling.mjs     PostgreSQL (a fresh schema, dropped after)
//   BENCH_MAX_TURNS=1000000 BENCH_REPEAT=300                     defaults
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../dist/db/database.js';
import { migrateToLatest } from '../dist/db/migrate.js';
import { recordAttempts } from '../dist/db/repositories/delivery-attempt-results.js';
import { claimDueDeliveries } from '../dist/db/repositories/delivery-leases.js';
import { findTask, listTasks } from '../dist/db/repositories/tasks.js';
import { listTurnsPage } from '../dist/db/repositories/turns.js';
import { throwawaySchema } from './support/postgres-schema.mjs';
import { loadAverage } from './support/proc.mjs';

const databaseUrl = process.env.BENCH_DATABASE_URL ?? null;
const maxTurns = Number(process.env.BENCH_MAX_TURNS ?? 1_000_000);
const repeat = Number(process.env.BENCH_REPEAT ?? 300);
const NOW = '2026-11-23T10:00:00.000Z';
const T0 = Date.parse(NOW);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-scaling-'));
const schema = databaseUrl ? await throwawaySchema(databaseUrl, `bench_scaling_${process.pid}`) : null;
const database = openDatabase({ databaseUrl: schema?.url ?? null, dataDir: dir, poolSize: 2 });
const db = database.kysely;
const dialect = database.dialect;
await migrateToLatest(database);

/** `select ... from <the numbers from..to-1 as column i>`: a table of numbers for bulk inserts. */
function numbers(from, to) {
  return dialect === 'postgres'
    ? `generate_series(${from}, ${to - 1}) as g(i)`
    : `(with recursive g(i) as (select ${from} union all select i + 1 from g where i < ${to - 1}) select i from g) as g`;
}
const run = (text) => sql.raw(text).execute(db);
const pad = (expr) => (dialect === 'postgres' ? `lpad(${expr}::text, 8, '0')` : `printf('%08d', ${expr})`);

/** µs per call: the median of 5 batches' means, so a moment of load elsewhere moves one batch only. */
async function time(fn) {
  for (let i = 0; i < 20; i++) await fn(i);
  const batch = Math.max(1, Math.round(repeat / 5));
  const means = [];
  for (let b = 0; b < 5; b++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) await fn(b * batch + i);
    means.push(Number(process.hrtime.bigint() - start) / 1e3 / batch);
  }
  return means.sort((x, y) => x - y)[2];
}

await db.insertInto('boards').values({ id: 'brd_1', name: 'B', created_at: NOW, updated_at: NOW }).execute();
await db
  .insertInto('lanes')
  .values(
    [0, 1, 2, 3].map((p) => ({
      id: `lane_${p}`,
      board_id: 'brd_1',
      name: `L${p}`,
      position: p,
      created_at: NOW,
      updated_at: NOW,
    })),
  )
  .execute();
const results = { dialect, date: new Date().toISOString(), load: [], turns: [], tasks: [], deliveries: [] };
results.load.push(loadAverage());

// Tasks: 100 → 10 000 on one board (4 lanes).
let tasks = 0;
for (const size of [100, 1000, 10_000]) {
  await run(`insert into tasks (id, board_id, lane_id, short_id, title, description, priority, tags, archived, rank, created_at, updated_at)
    select 'task_' || ${pad('i')}, 'brd_1', 'lane_' || (i % 4), 's' || i, 'Task ' || i, '', 0, '[]', 0, i / 4, '${NOW}', '${NOW}'
    from ${numbers(tasks, size)}`);
  tasks = size;
  await run('analyze');
  const detailOf = () =>
    time((i) => findTask(db, 'brd_1', `task_${String((i * 37) % size).padStart(8, '0')}`));
  const detail = await detailOf();
  // PostgreSQL counts a position with an index-only scan, which reads the table too for pages the
  // visibility map does not mark all-visible: right after bulk writes, every page. Autovacuum marks them
  // (for inserts too, since PostgreSQL 13); measured again as it leaves the table.
  let vacuumed = null;
  if (dialect === 'postgres') {
    await run('vacuum analyze tasks');
    vacuumed = await detailOf();
  }
  const lane = await time(() => listTasks(db, 'brd_1', { laneId: 'lane_1', includeArchived: false }));
  results.tasks.push({
    tasks: size,
    detailUs: Math.round(detail),
    ...(vacuumed === null ? {} : { detailVacuumedUs: Math.round(vacuumed) }),
    laneListUs: Math.round(lane),
    laneRows: size / 4,
  });
  console.log(
    `tasks ${size}: detail ${detail.toFixed(0)} µs${vacuumed === null ? '' : ` (vacuumed: ${vacuumed.toFixed(0)} µs)`}, lane list (${size / 4} rows) ${lane.toFixed(0)} µs`,
  );
}

// Turns: 1 k → 1 M on one task; a page of 50 after a cursor in the middle.
let turns = 0;
for (let size = 1000; size <= maxTurns; size *= 10) {
  await run(`insert into turns (id, task_id, board_id, source, source_id, role, content, tool_use_only, captured_at, created_at)
    select 'turn_' || ${pad('i')}, 'task_00000001', 'brd_1', 'claude', 'src' || i, 'assistant', 'Some captured content of a turn', 0,
      'T' || ${pad('i')}, '${NOW}'
    from ${numbers(turns, size)}`);
  turns = size;
  await run('analyze');
  const page = await time((i) => {
    const at = String(Math.floor(((i * 7919) % size) / 2)).padStart(8, '0');
    return listTurnsPage(db, {
      taskId: 'task_00000001',
      source: null,
      after: null,
      from: { capturedAt: `T${at}`, id: `turn_${at}` },
      limit: 50,
    });
  });
  results.turns.push({ turns: size, pageUs: Math.round(page) });
  console.log(`turns ${size}: page of 50 after a cursor ${page.toFixed(0)} µs`);
}

// Deliveries: 1 k → 1 M rows of finished history, with 64 pending among them, placed two ways at every
// size: spread evenly over the table (old deliveries being retried: each claim of 16 touches 16 table
// pages and index entries far apart, at every size from 1 k on) and the newest 64 (a fresh backlog,
// the usual case: neighbours). Before, 1 in 1 000 rows was pending besides the first 64, so the
// bigger the table, the more of the claims went to scattered rows: that measured where the pending rows
// were, not how big the table was. Each claim is made a moment later so the previous leases have run
// out; recorded results make the same rows due again.
await run(
  `insert into api_keys (id, name, key_hash, key_sealed, all_boards, created_at) values ('key_1', 'k', 'h', 's', 1, '${NOW}')`,
);
await run(`insert into webhooks (id, api_key_id, url, events, active, secret_sealed, created_at, updated_at)
  values ('wh_1', 'key_1', 'https://example.com/', '["*"]', 1, 's', '${NOW}', '${NOW}')`);
await run(
  `insert into webhook_events (id, type, board_id, payload, created_at) values ('evt_1', 'task.created', 'brd_1', '{}', '${NOW}')`,
);
const PENDING = 64;
let deliveries = 0;
let clock = T0 + 10_000_000;
const deliveryNumber = dialect === 'postgres' ? 'substr(id, 5)::int' : 'cast(substr(id, 5) as integer)';

/** Makes exactly the chosen 64 rows pending (due in their order), every other row delivered. */
async function placePending(where) {
  await run(`update webhook_deliveries set status = 'delivered', lease_until = null, lease_owner = null
    where status <> 'delivered'`);
  await run(`update webhook_deliveries set status = 'pending', next_attempt_at = ${T0} + ${deliveryNumber}
    where ${where}`);
  await run('analyze');
}

/** A claim of 16 a second after the last one (whose leases have run out by then), by `leaseOwner`. */
function claimNext(leaseOwner = 'bench', options = {}) {
  clock += 1000;
  return claimDueDeliveries(db, dialect, {
    nowMs: clock,
    limit: 16,
    leaseUntil: clock + 500,
    leaseOwner,
    excludeWebhookIds: [],
    ...options,
  });
}

async function measureDeliveries() {
  const claim = await time(() => claimNext());
  // A claim that leaves the only webhook out (its host is backlogged): it finds nothing, and looks
  // through at most the dispatcher's window of due deliveries.
  const excludingClaim = await time(() =>
    claimNext('bench', { excludeWebhookIds: ['wh_1'], scanLimit: 500 }),
  );
  // A claim, then its results recorded in one transaction (as the dispatcher's writer does); recorded
  // as due again, so the next round finds the same pending deliveries.
  const claimAndRecord = await time(async () => {
    const owner = `bench-${clock + 1000}`;
    const claimed = await claimNext(owner);
    const at = new Date(clock).toISOString();
    await db.transaction().execute((trx) =>
      recordAttempts(
        trx,
        dialect,
        claimed.map(({ id }) => ({
          id,
          leaseOwner: owner,
          record: {
            status: 'pending',
            attempts: 1,
            next_attempt_at: clock,
            response_status: 503,
            response_body: null,
            duration_ms: 1,
            error: 'Receiver answered HTTP 503.',
            last_attempt_at: at,
          },
        })),
      ),
    );
  });
  return {
    claimUs: Math.round(claim),
    excludingClaimUs: Math.round(excludingClaim),
    claimAndRecordUs: Math.round(claimAndRecord),
  };
}

for (let size = 1000; size <= maxTurns; size *= 10) {
  await run(`insert into webhook_deliveries (id, webhook_id, event_id, status, attempts, next_attempt_at, created_at)
    select 'dlv_' || ${pad('i')}, 'wh_1', 'evt_1', 'delivered', 1, ${T0} + i, '${NOW}'
    from ${numbers(deliveries, size)}`);
  deliveries = size;
  await placePending(`${deliveryNumber} % ${size / PENDING} = 0`);
  const spread = await measureDeliveries();
  await placePending(`${deliveryNumber} >= ${size - PENDING}`);
  const newest = await measureDeliveries();
  results.deliveries.push({ rows: size, spread, newest });
  const line = (m) =>
    `claim of 16 ${m.claimUs} µs, excluding claim ${m.excludingClaimUs} µs, claim + record ${m.claimAndRecordUs} µs`;
  console.log(
    `deliveries ${size}, 64 pending spread: ${line(spread)}; the newest 64 pending: ${line(newest)}`,
  );
}

results.load.push(loadAverage());
fs.mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
fs.writeFileSync(
  new URL(`./results/scaling-${dialect}.json`, import.meta.url),
  JSON.stringify(results, null, 2),
);
console.log(JSON.stringify(results));
await database.close();
await schema?.drop();
fs.rmSync(dir, { recursive: true, force: true });
