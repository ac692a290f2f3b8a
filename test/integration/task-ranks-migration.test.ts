import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { appendSlot } from '../../src/db/repositories/task-ranks.js';
import { findTask, listTasks } from '../../src/db/repositories/tasks.js';
import type { Dialect } from '../../src/db/schema.js';
import { DIALECTS, TEST_DATABASE_URL } from '../support/database.js';

const NOW = '2026-11-23T10:00:00.000Z';

/** An empty database (no migration applied) and how to drop it. */
async function emptyDatabase(dialect: Dialect): Promise<{ database: Database; drop(): Promise<void> }> {
  const suffix = randomBytes(6).toString('hex');
  if (dialect === 'sqlite') {
    const file = path.join(os.tmpdir(), `laneboard-ranks-${process.pid}-${suffix}.sqlite`);
    const database = openDatabase({ databaseUrl: null, dataDir: os.tmpdir(), sqliteFile: file });
    return { database, drop: () => database.close() };
  }
  const schema = `lbr_${suffix}`;
  const admin = async (query: string) => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL as string });
    await client.connect();
    await client.query(query);
    await client.end();
  };
  await admin(`create schema ${schema}`);
  const url = new URL(TEST_DATABASE_URL as string);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const database = openDatabase({ databaseUrl: url.toString(), dataDir: os.tmpdir(), poolSize: 2 });
  return {
    database,
    drop: async () => {
      await database.close();
      await admin(`drop schema ${schema} cascade`);
    },
  };
}

describe.each(DIALECTS)('migration 008-task-ranks ($dialect)', ({ dialect, skip }) => {
  it.skipIf(skip)(
    'keeps the stored order and positions; appends sort after every migrated task',
    async () => {
      const { database, drop } = await emptyDatabase(dialect);
      try {
        await migrateToLatest(database, '007-performance-indexes');
        const db = database.kysely;
        await sql`insert into boards (id, name, created_at, updated_at) values ('brd', 'B', ${NOW}, ${NOW})`.execute(
          db,
        );
        await sql`insert into lanes (id, board_id, name, position, created_at, updated_at)
        values ('lane', 'brd', 'L', 0, ${NOW}, ${NOW})`.execute(db);
        // Stored positions in an order unlike ids and creation times, plus an archived task (no position).
        const tasks: Array<[string, number | null]> = [
          ['task_a', 2],
          ['task_b', 0],
          ['task_c', null],
          ['task_d', 1],
          ['task_e', 3],
        ];
        for (const [id, position] of tasks) {
          await sql`insert into tasks (id, board_id, lane_id, short_id, title, archived, position, created_at, updated_at)
          values (${id}, 'brd', 'lane', ${id}, ${id}, ${position === null ? 1 : 0}, ${position}, ${NOW}, ${NOW})`.execute(
            db,
          );
        }

        expect(await migrateToLatest(database)).toContain('008-task-ranks');

        const list = await listTasks(db, 'brd', { includeArchived: true });
        expect(list.map((row) => [row.id, row.position])).toEqual([
          ['task_b', 0],
          ['task_d', 1],
          ['task_a', 2],
          ['task_e', 3],
          ['task_c', null],
        ]);
        expect((await findTask(db, 'brd', 'task_a'))?.position).toBe(2);
        expect((await findTask(db, 'brd', 'task_c'))?.position).toBeNull();
        const slot = await appendSlot(db, dialect, 'brd', 'lane');
        expect(slot?.position).toBe(4);
        expect(slot?.rank).toBeGreaterThan(3);
      } finally {
        await drop();
      }
    },
  );
});
