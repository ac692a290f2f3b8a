import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { sqliteTaskPositions } from '../../src/db/repositories/task-positions.js';
import { appendSlot } from '../../src/db/repositories/task-ranks.js';
import { findTask } from '../../src/db/repositories/tasks.js';
import { sqliteConnection } from '../../src/db/sqlite-direct.js';
import { createTestDatabase } from '../support/database.js';
import { NOW, taskRow, usePositionLanes } from './task-positions-fixture.js';

/* The SQLite position cache and writes it did not see: other connections, rebuilt tables, rolled-back transactions. */
describe('task positions cached on SQLite, beside other writers', () => {
  const lanes = usePositionLanes();
  const { t, insert, expectPositionsOf } = lanes;
  let laneId: string;
  beforeEach(() => {
    laneId = lanes.laneId();
  });

  it('sees commits of another connection on the same file', async () => {
    for (let i = 1; i <= 4; i++) await insert(`${laneId}_t${i}`, i);
    await expectPositionsOf(laneId);
    const other = new SqliteDatabase(t.sqliteFile as string);
    try {
      other.prepare('update tasks set rank = 0 where id = ?').run(`${laneId}_t3`);
      await expectPositionsOf(laneId);
      other.prepare('delete from tasks where id = ?').run(`${laneId}_t1`);
      await expectPositionsOf(laneId);
    } finally {
      other.close();
    }
  });

  it("keeps its lanes through other connections' commits that shift no task (the dispatcher's)", async () => {
    for (let i = 1; i <= 3; i++) await insert(`${laneId}_t${i}`, i);
    await expectPositionsOf(laneId);
    const direct = sqliteConnection(t.database.kysely);
    if (!direct) throw new Error('a SQLite database');
    const positions = sqliteTaskPositions(direct);
    const read = positions.lanesRead;
    const other = new SqliteDatabase(t.sqliteFile as string);
    try {
      other.prepare("update boards set name = 'Renamed' where id = 'brd_1'").run();
      other.prepare("update tasks set title = 'Retitled' where id = ?").run(`${laneId}_t2`);
      await expectPositionsOf(laneId);
      await insert(`${laneId}_t4`, 4);
      await expectPositionsOf(laneId);
      expect(positions.lanesRead).toBe(read);
      // A write that shifts the lane is seen, and the lane read again.
      other.prepare('update tasks set archived = 1 where id = ?').run(`${laneId}_t1`);
      await expectPositionsOf(laneId);
      expect(positions.lanesRead).toBe(read + 1);
    } finally {
      other.close();
    }
  });

  it("notices another connection's task write made before one of its own that did not look first", async () => {
    for (let i = 1; i <= 3; i++) await insert(`${laneId}_t${i}`, i);
    await expectPositionsOf(laneId);
    const other = new SqliteDatabase(t.sqliteFile as string);
    try {
      other.prepare('update tasks set rank = 0 where id = ?').run(`${laneId}_t3`);
    } finally {
      other.close();
    }
    // This insert's triggers run before anything reads the lane: the counter skipped a step.
    await insert(`${laneId}_t4`, 4);
    await expectPositionsOf(laneId);
  });

  it('keeps following appends after another connection rebuilt the table (its triggers went with it)', async () => {
    for (let i = 1; i <= 3; i++) await insert(`${laneId}_t${i}`, i);
    await expectPositionsOf(laneId);
    const other = new SqliteDatabase(t.sqliteFile as string);
    try {
      // A migration that rebuilds the table, as 010 did for activities: the TEMP triggers on the old
      // table are dropped with it, so only a fresh look at the schema can make them again.
      const schema = other
        .prepare("select type, sql from sqlite_master where tbl_name = 'tasks' and sql is not null")
        .all() as Array<{ type: string; sql: string }>;
      const table = schema.find((entry) => entry.type === 'table')?.sql as string;
      other.pragma('foreign_keys = off');
      // As SQLite's rebuild procedure does: the rename leaves the views over the table (search's
      // `search_content`) as they are, to be read again against the new table.
      other.pragma('legacy_alter_table = on');
      other.exec(`${table.replace(/"?tasks"?/, 'tasks_rebuilt')};
        insert into tasks_rebuilt select * from tasks;
        drop table tasks;
        alter table tasks_rebuilt rename to tasks;
        ${schema
          .filter((entry) => entry.type !== 'table')
          .map((entry) => `${entry.sql};`)
          .join('\n')}`);
    } finally {
      other.close();
    }
    await expectPositionsOf(laneId);
    await insert(`${laneId}_t4`, 4);
    await insert(`${laneId}_t0`, 0);
    await expectPositionsOf(laneId);
  });

  it('works when first used inside transactions, one of them rolled back', async () => {
    const fresh = await createTestDatabase('sqlite');
    try {
      const db = fresh.database.kysely;
      await db
        .insertInto('boards')
        .values({ id: 'brd_1', name: 'B', created_at: NOW, updated_at: NOW })
        .execute();
      await db
        .insertInto('lanes')
        .values({ id: 'lane_f', board_id: 'brd_1', name: 'L', position: 0, created_at: NOW, updated_at: NOW })
        .execute();
      const task = (id: string, rank: number) => taskRow(id, rank, 'lane_f');
      await expect(
        db.transaction().execute(async (trx) => {
          expect(await appendSlot(trx, 'sqlite', 'brd_1', 'lane_f')).toEqual({ position: 0, rank: 1 });
          await trx.insertInto('tasks').values(task('f_ghost', 1)).execute();
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      // The triggers made in the rolled-back transaction are gone; they are made again.
      for (let i = 1; i <= 3; i++) {
        await db.transaction().execute(async (trx) => {
          expect(await appendSlot(trx, 'sqlite', 'brd_1', 'lane_f')).toEqual({ position: i - 1, rank: i });
          await trx
            .insertInto('tasks')
            .values(task(`f_${i}`, i))
            .execute();
        });
      }
      await db.updateTable('tasks').set({ rank: 0 }).where('id', '=', 'f_3').execute();
      expect((await findTask(db, 'brd_1', 'f_3'))?.position).toBe(0);
      expect((await findTask(db, 'brd_1', 'f_2'))?.position).toBe(2);
      expect(await db.transaction().execute((trx) => appendSlot(trx, 'sqlite', 'brd_1', 'lane_f'))).toEqual({
        position: 3,
        rank: 3,
      });
    } finally {
      await fresh.drop();
    }
  });

  it('keeps only the count of a lane over 20 000 tasks: details count, appends stay right', async () => {
    await sql`insert into tasks (id, board_id, lane_id, short_id, title, description, priority, tags,
        archived, rank, created_at, updated_at)
      with recursive n(i) as (select 1 union all select i + 1 from n where i < 20050)
      select ${laneId} || '_' || printf('%06d', i), 'brd_1', ${laneId}, ${laneId} || 's' || i, 'T', '', 0,
        '[]', 0, i, ${NOW}, ${NOW} from n`.execute(t.database.kysely);
    const slot = () =>
      t.database.kysely.transaction().execute((trx) => appendSlot(trx, 'sqlite', 'brd_1', laneId));
    expect(await slot()).toEqual({ position: 20050, rank: 20051 });
    await insert(`${laneId}_z`, 20051);
    expect(await slot()).toEqual({ position: 20051, rank: 20052 });
    expect((await findTask(t.database.kysely, 'brd_1', `${laneId}_z`))?.position).toBe(20050);
    expect((await findTask(t.database.kysely, 'brd_1', `${laneId}_000007`))?.position).toBe(6);
    await t.database.kysely.deleteFrom('tasks').where('id', '=', `${laneId}_000001`).execute();
    expect(await slot()).toEqual({ position: 20050, rank: 20052 });
    expect((await findTask(t.database.kysely, 'brd_1', `${laneId}_000007`))?.position).toBe(5);
  });

  it('forgets a deleted lane', async () => {
    for (let i = 1; i <= 3; i++) await insert(`${laneId}_t${i}`, i);
    await expectPositionsOf(laneId);
    await t.database.kysely.deleteFrom('lanes').where('id', '=', laneId).execute();
    expect(await findTask(t.database.kysely, 'brd_1', `${laneId}_t1`)).toBeUndefined();
  });
});
