import SqliteDatabase from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findActiveKeyByHash } from '../../src/db/repositories/api-keys.js';
import { listRecentDeliveries } from '../../src/db/repositories/deliveries.js';
import {
  claimDueDeliveries,
  recordAttempt,
  recordAttempts,
} from '../../src/db/repositories/delivery-leases.js';
import { deliveriesOf, lastDeliveries } from '../../src/db/repositories/settings-console.js';
import { appendSlot, boardLaneAndAppendRank } from '../../src/db/repositories/task-ranks.js';
import { countLaneTasks, findTask, listTasks } from '../../src/db/repositories/tasks.js';
import { listTurnsPage } from '../../src/db/repositories/turns.js';
import { deleteFinishedDeliveriesBefore } from '../../src/db/repositories/webhook-history.js';
import { deleteWebhook } from '../../src/db/repositories/webhooks.js';
import type { DB, Dialect } from '../../src/db/schema.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/database.js';

/*
 * The hot queries must be served by indexes, so their cost stays flat as a board, a task's turns or the
 * delivery table grow. The test runs each repository function as the code does, captures the SQL it
 * sends (through Kysely's query log), and reads the database's plan for it on a database with enough
 * rows, analysed, that a full scan of a big table would be a visible choice.
 */

const NOW = '2026-11-23T10:00:00.000Z';
const BOARDS = 20;
const TASKS_PER_BOARD = 150;
const TURNS = 4000;
const DELIVERIES = 6000;
const BIG_TABLES = 'tasks|turns|webhook_deliveries|api_keys|webhook_events';

interface Captured {
  sql: string;
  parameters: readonly unknown[];
}

function openLogged(t: TestDatabase, dialect: Dialect, log: Captured[]): Kysely<DB> {
  const onLog = (event: { query: Captured }) => {
    log.push({ sql: event.query.sql, parameters: event.query.parameters });
  };
  if (dialect === 'sqlite') {
    return new Kysely<DB>({
      dialect: new SqliteDialect({ database: new SqliteDatabase(t.sqliteFile as string) }),
      log: onLog,
    });
  }
  return new Kysely<DB>({
    dialect: new PostgresDialect({
      pool: new pg.Pool({ connectionString: t.databaseUrl as string, max: 2 }),
    }),
    log: onLog,
  });
}

async function insertChunked<T extends keyof DB & string>(
  db: Kysely<DB>,
  table: T,
  rows: Array<Record<string, unknown>>,
): Promise<void> {
  for (let i = 0; i < rows.length; i += 400) {
    // Seed rows of any table: their shape is checked by the database, not by the compiler.
    await db
      .insertInto(table)
      .values(rows.slice(i, i + 400) as never)
      .execute();
  }
}

describe.each(DIALECTS)('query plans of the hot queries ($dialect)', ({ dialect, skip }) => {
  let t: TestDatabase;
  let db: Kysely<DB>;
  const log: Captured[] = [];

  /** The plan, as one text, of every statement `run` sends. */
  async function plansOf(run: (db: Kysely<DB>) => Promise<unknown>): Promise<string> {
    log.length = 0;
    await run(db);
    const statements = log.splice(0);
    if (process.env.SHOW_PLANS) console.log(statements.map((s) => s.sql).join('\n'));
    expect(statements.length).toBeGreaterThan(0);
    const explain = dialect === 'sqlite' ? 'explain query plan ' : 'explain ';
    const plans: string[] = [];
    for (const s of statements) {
      const plan = await db.executeQuery<Record<string, unknown>>(
        CompiledQuery.raw(`${explain}${s.sql}`, [...s.parameters]),
      );
      plans.push(plan.rows.map((row) => Object.values(row).join(' ')).join('\n'));
    }
    log.length = 0;
    if (process.env.SHOW_PLANS) console.log(plans.join('\n'));
    return plans.join('\n');
  }

  /** No full scan of a big table: every access to one goes through an index. */
  function expectIndexed(plan: string, index: RegExp): void {
    if (dialect === 'sqlite') {
      expect(plan).not.toMatch(new RegExp(`SCAN (${BIG_TABLES})( AS \\w+)?\\s*$`, 'm'));
    } else {
      expect(plan).not.toMatch(new RegExp(`Seq Scan on (${BIG_TABLES})\\b`));
    }
    expect(plan).toMatch(index);
  }

  beforeAll(async () => {
    if (skip) return;
    t = await createTestDatabase(dialect);
    db = openLogged(t, dialect, log);
    const keys = Array.from({ length: 500 }, (_, i) => ({
      id: `key_${i}`,
      name: `k${i}`,
      key_hash: `hash_${i}`,
      key_sealed: 'sealed',
      all_boards: 0,
      created_at: NOW,
      revoked_at: i % 7 === 0 ? NOW : null,
    }));
    await insertChunked(db, 'api_keys', keys);
    const boards = Array.from({ length: BOARDS }, (_, b) => ({
      id: `brd_${b}`,
      name: `B${b}`,
      created_at: NOW,
      updated_at: NOW,
    }));
    await insertChunked(db, 'boards', boards);
    await insertChunked(
      db,
      'api_key_grants',
      keys.map((k, i) => ({
        api_key_id: k.id,
        board_id: `brd_${i % BOARDS}`,
        permission: 'edit',
        created_at: NOW,
      })),
    );
    const lanes = boards.flatMap((b) =>
      [0, 1, 2, 3].map((p) => ({
        id: `lane_${b.id}_${p}`,
        board_id: b.id,
        name: `L${p}`,
        position: p,
        created_at: NOW,
        updated_at: NOW,
      })),
    );
    await insertChunked(db, 'lanes', lanes);
    const tasks = boards.flatMap((b) =>
      Array.from({ length: TASKS_PER_BOARD }, (_, i) => ({
        id: `task_${b.id}_${i}`,
        board_id: b.id,
        lane_id: `lane_${b.id}_${i % 4}`,
        short_id: `${b.id.slice(4)}x${i}`,
        title: `T${i}`,
        description: '',
        priority: 0,
        tags: '[]',
        archived: i % 10 === 9 ? 1 : 0,
        rank: Math.floor(i / 4),
        created_at: NOW,
        updated_at: NOW,
        last_turn_at: null,
      })),
    );
    await insertChunked(db, 'tasks', tasks);
    await insertChunked(
      db,
      'turns',
      Array.from({ length: TURNS }, (_, i) => ({
        id: `turn_${String(i).padStart(6, '0')}`,
        // Most on one task (the one listed below), as a long-running agent's task has them.
        task_id: i < 3000 ? 'task_brd_1_1' : `task_brd_${i % 4}_${i % 40}`,
        board_id: i < 3000 ? 'brd_1' : `brd_${i % 4}`,
        source: 'claude',
        source_id: `s${i}`,
        role: 'user',
        content: 'hello',
        tool_use_only: 0,
        captured_at: new Date(Date.parse(NOW) + i * 1000).toISOString(),
        created_at: NOW,
      })),
    );
    await insertChunked(
      db,
      'webhooks',
      Array.from({ length: 20 }, (_, i) => ({
        id: `wh_${i}`,
        api_key_id: `key_${i + 1}`,
        url: 'https://example.com/hook',
        events: '["*"]',
        active: 1,
        secret_sealed: 'sealed',
        created_at: NOW,
        updated_at: NOW,
      })),
    );
    await insertChunked(
      db,
      'webhook_events',
      Array.from({ length: DELIVERIES / 20 }, (_, i) => ({
        id: `evt_${i}`,
        type: 'task.created',
        board_id: 'brd_0',
        payload: '{}',
        created_at: NOW,
      })),
    );
    // Events whose deliveries retention has pruned: the table is bigger than the deliveries' share of it.
    await insertChunked(
      db,
      'webhook_events',
      Array.from({ length: 5000 }, (_, i) => ({
        id: `evt_old_${i}`,
        type: 'task.updated',
        board_id: 'brd_1',
        payload: '{}',
        created_at: NOW,
      })),
    );
    // Mostly finished history, a few pending: the claim must find the pending ones without reading the rest.
    await insertChunked(
      db,
      'webhook_deliveries',
      Array.from({ length: DELIVERIES }, (_, i) => ({
        id: `dlv_${String(i).padStart(6, '0')}`,
        webhook_id: `wh_${i % 20}`,
        event_id: `evt_${Math.floor(i / 20)}`,
        status: i % 100 === 0 ? 'pending' : 'delivered',
        attempts: 1,
        next_attempt_at: Date.parse(NOW) + i,
        created_at: new Date(Date.parse(NOW) + i).toISOString(),
      })),
    );
    await db.executeQuery(CompiledQuery.raw('analyze'));
  }, 60_000);

  afterAll(async () => {
    await db?.destroy();
    await t?.drop();
  });

  describe.skipIf(skip)('', () => {
    it('key lookup by hash uses the unique key_hash index', async () => {
      const plan = await plansOf(async (db) => {
        expect(await findActiveKeyByHash(db, 'hash_3')).toMatchObject({ id: 'key_3' });
      });
      expectIndexed(
        plan,
        dialect === 'sqlite' ? /SEARCH k USING INDEX \w*api_keys\w*/ : /Index Scan .*api_keys/,
      );
    });

    it('the task list of a board and of a lane use the board index', async () => {
      const board = await plansOf(async (db) => {
        expect(await listTasks(db, 'brd_3', { includeArchived: false })).toHaveLength(135);
      });
      expectIndexed(board, dialect === 'sqlite' ? /SEARCH tasks USING INDEX/ : /Index.* on tasks/);
      const lane = await plansOf(async (db) => {
        const rows = await listTasks(db, 'brd_3', { includeArchived: true, laneId: 'lane_brd_3_1' });
        expect(rows).toHaveLength(38);
      });
      expectIndexed(lane, dialect === 'sqlite' ? /SEARCH tasks USING INDEX/ : /Index.* on tasks/);
    });

    it('task detail reads the task by its primary key and counts its position in the lane rank index', async () => {
      const detail = await plansOf(async (db) => {
        expect(await findTask(db, 'brd_2', 'task_brd_2_7')).toMatchObject({ title: 'T7', position: 1 });
      });
      expectIndexed(
        detail,
        dialect === 'sqlite' ? /SEARCH tasks USING INDEX sqlite_autoindex_tasks_1/ : /tasks_pkey/,
      );
      // The count is a range of the index: the lane's active tasks, then ranks before the task's (SQLite
      // ranges on the rank and filters the id of an equal rank in the index; PostgreSQL ranges on both).
      expect(detail).toMatch(
        dialect === 'sqlite'
          ? /SEARCH earlier USING COVERING INDEX tasks_lane_rank_idx \(lane_id=\? AND archived=\? AND (rank<\?|\(rank,id\)<\(\?,\?\))\)/
          : /(Index Only Scan using|Bitmap Index Scan on) tasks_lane_rank_idx.*\n\s+Index Cond: \(\(lane_id = tasks.lane_id\) AND \(archived = 0\) AND \(ROW\(rank, id\) < ROW\(tasks.rank, tasks.id\)\)\)/,
      );
      const count = await plansOf(async (db) => {
        expect(await countLaneTasks(db, 'lane_brd_2_0')).toBe(38);
      });
      expectIndexed(count, /tasks_lane_rank_idx/);
    });

    it('an append reads its position and rank from the lane rank index, with no lock', async () => {
      const plan = await plansOf(async (db) => {
        expect(await appendSlot(db, dialect, 'brd_2', 'lane_brd_2_0')).toMatchObject({ position: 38 });
      });
      expectIndexed(plan, /tasks_lane_rank_idx/);
      expect(plan).not.toMatch(/LockRows/);
      if (dialect === 'sqlite') {
        // A create's one statement for the board, the lane and the rank: primary keys and the rank index.
        const created = await plansOf(async (db) => {
          expect(await boardLaneAndAppendRank(db, 'brd_2', 'lane_brd_2_0')).toMatchObject({ rank: 38 });
        });
        expectIndexed(created, /SEARCH boards USING COVERING INDEX sqlite_autoindex_boards_1 \(id=\?\)/);
        expectIndexed(created, /SEARCH lanes USING INDEX sqlite_autoindex_lanes_1 \(id=\?\)/);
        expectIndexed(created, /tasks_lane_rank_idx/);
      }
    });

    it('a page of turns after a cursor is a range of the (task, captured_at, id) index', async () => {
      const plan = await plansOf(async (db) => {
        const page = await listTurnsPage(db, {
          taskId: 'task_brd_1_1',
          source: null,
          after: null,
          from: { capturedAt: '2026-11-23T10:05:00.000Z', id: 'turn_000000' },
          limit: 50,
        });
        expect(page.length).toBeGreaterThan(0);
      });
      // The range starts at the cursor (not a filter over the task's turns from the first one).
      expectIndexed(
        plan,
        dialect === 'sqlite'
          ? /turns_task_captured_idx \(task_id=\? AND \(captured_at,id\)>\(\?,\?\)\)/
          : /turns_task_captured_idx on turns.*\n\s+Index Cond: \(\(task_id = .* AND \(ROW\(captured_at, id\) > ROW\(/,
      );
    });

    it("a webhook's newest deliveries: finished ones by the partial per-webhook index, pending ones by the due index", async () => {
      // wh_0's deliveries are every 20th; every 100th is pending, the rest delivered. Each was created a
      // millisecond after the one before, so newest first is by id, descending, whatever the status.
      const ofWh0 = Array.from({ length: DELIVERIES / 20 }, (_, k) => DELIVERIES - 20 - 20 * k).map((i) => ({
        id: `dlv_${String(i).padStart(6, '0')}`,
        status: i % 100 === 0 ? 'pending' : 'delivered',
      }));
      const ids = (rows: ReadonlyArray<{ id: string }>) => rows.map((r) => r.id);
      const both = await plansOf(async (db) => {
        const rows = await listRecentDeliveries(db, 'wh_0', 25);
        expect(rows.map((r) => [r.id, r.status])).toEqual(ofWh0.slice(0, 25).map((d) => [d.id, d.status]));
        expect(rows.filter((r) => r.status === 'pending')).toHaveLength(5);
        expect(rows[0]?.event_type).toBe('task.created');
      });
      expectIndexed(both, /deliveries_webhook_idx/);
      expect(both).toMatch(/deliveries_due_idx/);
      const pending = await plansOf(async (db) => {
        const rows = await deliveriesOf(db, 'wh_0', 'pending', 50);
        expect(ids(rows)).toEqual(ids(ofWh0.filter((d) => d.status === 'pending')).slice(0, 50));
      });
      expectIndexed(pending, /deliveries_due_idx/);
      const delivered = await plansOf(async (db) => {
        const rows = await deliveriesOf(db, 'wh_0', 'delivered', 50);
        expect(ids(rows)).toEqual(ids(ofWh0.filter((d) => d.status === 'delivered')).slice(0, 50));
      });
      expectIndexed(delivered, /deliveries_webhook_idx/);
      const last = await plansOf(async (db) => {
        const rows = await lastDeliveries(db, ['wh_0', 'wh_7']);
        expect(rows.get('wh_0')?.id).toBe(ofWh0[0]?.id);
        expect(rows.get('wh_7')?.id).toBe(`dlv_${String(DELIVERIES - 13).padStart(6, '0')}`);
      });
      expectIndexed(last, /deliveries_webhook_idx/);
    });

    it('retention finds old finished deliveries by the partial finished index', async () => {
      const retention = await plansOf(async (db) => {
        // Nothing was created before NOW: the plan is what matters, no row is deleted.
        expect(await deleteFinishedDeliveriesBefore(db, NOW, 500)).toBe(0);
      });
      expectIndexed(retention, /deliveries_finished_idx/);
    });

    it("deleting a webhook finds the events of its deliveries through indexes (not its row's cascade)", async () => {
      await db
        .insertInto('webhooks')
        .values({
          id: 'wh_doomed',
          api_key_id: 'key_1',
          url: 'https://example.com/hook',
          events: '["*"]',
          active: 1,
          secret_sealed: 'sealed',
          created_at: NOW,
          updated_at: NOW,
        })
        .execute();
      await db
        .insertInto('webhook_deliveries')
        .values(
          (['pending', 'delivered'] as const).map((status, i) => ({
            id: `dlv_doomed_${i}`,
            webhook_id: 'wh_doomed',
            event_id: `evt_${i}`,
            status,
            attempts: 1,
            next_attempt_at: Date.parse(NOW),
            created_at: NOW,
          })),
        )
        .execute();
      const plan = await plansOf(async (db) => {
        await deleteWebhook(db, 'wh_doomed');
      });
      const [events, webhookRow] = plan.split(
        /\n(?=Delete on webhooks|\d+ \d+ \d+ SEARCH webhooks USING INDEX)/,
      );
      // The statement deleting the events: each of the two reads of webhook_deliveries is indexed.
      expect(events).not.toMatch(/SCAN webhook_deliveries\s*$|Seq Scan on webhook_deliveries/m);
      expect(events).toMatch(/deliveries_webhook_idx/);
      expect(events).toMatch(/deliveries_due_idx/);
      // Deleting the webhook row cascades to its deliveries by webhook_id, which no index on all rows
      // serves any more: on SQLite this plan shows that scan (PostgreSQL's cascade runs in a trigger).
      expect(webhookRow).toMatch(dialect === 'sqlite' ? /SCAN webhook_deliveries/ : /Delete on webhooks/);
      expect(
        await db
          .selectFrom('webhook_deliveries')
          .select('id')
          .where('webhook_id', '=', 'wh_doomed')
          .execute(),
      ).toEqual([]);
    });

    it('the delivery claim finds due deliveries by the (status, next_attempt_at) index; results by id', async () => {
      const claim = await plansOf(async (db) => {
        const claimed = await claimDueDeliveries(db, dialect, {
          nowMs: Date.parse(NOW) + DELIVERIES,
          limit: 10,
          leaseUntil: Date.parse(NOW) + 60_000,
          leaseOwner: 'plan-test',
          excludeWebhookIds: ['wh_3'],
        });
        expect(claimed).toHaveLength(10);
      });
      expectIndexed(claim, /deliveries_due_idx/);
      const record = await plansOf(async (db) => {
        await recordAttempt(db, 'dlv_000000', 'plan-test', {
          status: 'delivered',
          attempts: 1,
          next_attempt_at: 0,
          response_status: 204,
          response_body: null,
          duration_ms: 1,
          error: null,
          last_attempt_at: NOW,
        });
      });
      expectIndexed(
        record,
        dialect === 'sqlite'
          ? /USING INDEX sqlite_autoindex_webhook_deliveries_1/
          : /webhook_deliveries_pkey/,
      );
    });

    it('a claim that leaves webhooks out looks through a bounded window of the due index; results by id', async () => {
      const window = await plansOf(async (db) => {
        await claimDueDeliveries(db, dialect, {
          nowMs: Date.parse(NOW) + DELIVERIES,
          limit: 10,
          leaseUntil: Date.parse(NOW) + 60_000,
          leaseOwner: 'plan-window',
          excludeWebhookIds: ['wh_3'],
          scanLimit: 100,
        });
      });
      expectIndexed(window, /deliveries_due_idx/);
      const claimed = await claimDueDeliveries(db, dialect, {
        nowMs: Date.parse(NOW) + DELIVERIES,
        limit: 5,
        leaseUntil: Date.parse(NOW) + 60_000,
        leaseOwner: 'plan-batch',
        excludeWebhookIds: [],
      });
      expect(claimed).toHaveLength(5);
      // One more, leased by another claimer: a result recorded under the wrong lease is not stored.
      const [takenOver] = await claimDueDeliveries(db, dialect, {
        nowMs: Date.parse(NOW) + DELIVERIES,
        limit: 1,
        leaseUntil: Date.parse(NOW) + 60_000,
        leaseOwner: 'plan-other',
        excludeWebhookIds: [],
      });
      if (!takenOver) throw new Error('nothing left to claim');
      const batch = await plansOf(async (db) => {
        const stored = await recordAttempts(
          db,
          dialect,
          [...claimed, takenOver].map(({ id }) => ({
            id,
            leaseOwner: 'plan-batch',
            record: {
              status: 'delivered' as const,
              attempts: 1,
              next_attempt_at: 0,
              response_status: 204,
              response_body: null,
              duration_ms: 1,
              error: null,
              last_attempt_at: NOW,
            },
          })),
        );
        expect(stored.sort()).toEqual(claimed.map(({ id }) => id).sort());
      });
      expectIndexed(
        batch,
        dialect === 'sqlite'
          ? /USING INDEX sqlite_autoindex_webhook_deliveries_1/
          : /webhook_deliveries_pkey/,
      );
    });
  });
});
