import SqliteDatabase from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect } from 'vitest';
import type { DB, Dialect } from '../../src/db/schema.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

/*
 * The hot queries must be served by indexes, so their cost stays flat as a board, a task's turns or the
 * delivery table grow. The test runs each repository function as the code does, captures the SQL it
 * sends (through Kysely's query log), and reads the database's plan for it on a database with enough
 * rows, analysed, that a full scan of a big table would be a visible choice.
 */

export const NOW = '2026-11-23T10:00:00.000Z';
export const BOARDS = 20;
export const TASKS_PER_BOARD = 150;
export const TURNS = 4000;
export const DELIVERIES = 6000;
export const BIG_TABLES = 'tasks|turns|webhook_deliveries|api_keys|webhook_events';

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

/** Keys, boards, their grants and four lanes each: what the other seeds refer to. */
async function seedKeysAndBoards(db: Kysely<DB>): Promise<void> {
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
}

/** BOARDS boards of TASKS_PER_BOARD tasks, and TURNS turns, most of them on one task. */
export async function seedTasksAndTurns(db: Kysely<DB>): Promise<void> {
  const boards = Array.from({ length: BOARDS }, (_, b) => ({ id: `brd_${b}` }));
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
}

/** 20 webhooks, their events and DELIVERIES deliveries, mostly finished. */
export async function seedDeliveries(db: Kysely<DB>): Promise<void> {
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
}

export interface QueryPlans {
  /** The logged connection to the seeded database (built in beforeAll). */
  readonly db: Kysely<DB>;
  /** The plan, as one text, of every statement `run` sends. */
  plansOf(run: (db: Kysely<DB>) => Promise<unknown>): Promise<string>;
  /** No full scan of a big table: every access to one goes through an index. */
  expectIndexed(plan: string, index: RegExp): void;
}

/**
 * A database of `dialect` for the enclosing describe, seeded with keys and boards and then by `seed`,
 * analysed, and read through a connection that logs the statements a repository function sends.
 */
export function useQueryPlans(dialect: Dialect, seed: (db: Kysely<DB>) => Promise<void>): QueryPlans {
  let t: TestDatabase | undefined;
  let logged: Kysely<DB> | undefined;
  const log: Captured[] = [];
  const connection = (): Kysely<DB> => {
    if (!logged) throw new Error('the query plan database is used outside its tests');
    return logged;
  };

  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    logged = openLogged(t, dialect, log);
    await seedKeysAndBoards(logged);
    await seed(logged);
    await logged.executeQuery(CompiledQuery.raw('analyze'));
  });
  afterAll(async () => {
    await logged?.destroy();
    await t?.drop();
  });

  return {
    get db() {
      return connection();
    },
    async plansOf(run) {
      const db = connection();
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
    },
    expectIndexed(plan, index) {
      if (dialect === 'sqlite') {
        expect(plan).not.toMatch(new RegExp(`SCAN (${BIG_TABLES})( AS \\w+)?\\s*$`, 'm'));
      } else {
        expect(plan).not.toMatch(new RegExp(`Seq Scan on (${BIG_TABLES})\\b`));
      }
      expect(plan).toMatch(index);
    },
  };
}
