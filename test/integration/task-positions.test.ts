import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appendSlot } from '../../src/db/repositories/task-ranks.js';
import { findTask } from '../../src/db/repositories/tasks.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

/*
 * On SQLite, task detail takes positions from a per-lane cache kept current by TEMP triggers
 * (src/db/repositories/task-positions.ts). Every position it answers must equal the one counted from
 * the committed rows, whatever changed the lane: appends, moves, archiving, deletes, rolled-back
 * transactions and commits by another connection.
 */

const NOW = '2026-11-21T10:00:00.000Z';

describe('task positions cached on SQLite', () => {
  let t: TestDatabase;
  let next = 0;

  beforeAll(async () => {
    t = await createTestDatabase('sqlite');
    const db = t.database.kysely;
    await db
      .insertInto('boards')
      .values({ id: 'brd_1', name: 'B', created_at: NOW, updated_at: NOW })
      .execute();
  });
  afterAll(async () => {
    await t?.drop();
  });

  let laneId: string;
  beforeEach(async () => {
    laneId = `lane_${next++}`;
    await t.database.kysely
      .insertInto('lanes')
      .values({ id: laneId, board_id: 'brd_1', name: 'L', position: next, created_at: NOW, updated_at: NOW })
      .execute();
  });

  async function insert(id: string, rank: number, lane = laneId): Promise<void> {
    await t.database.kysely
      .insertInto('tasks')
      .values(taskRow(id, rank, lane))
      .execute();
  }

  /** Every task of the lane: the position findTask answers against the one counted from the rows. */
  async function expectPositionsOf(lane: string): Promise<void> {
    const rows = await t.database.kysely
      .selectFrom('tasks')
      .select(['id', 'archived'])
      .where('lane_id', '=', lane)
      .orderBy('archived')
      .orderBy('rank')
      .orderBy('id')
      .execute();
    let position = 0;
    for (const row of rows) {
      const expected = row.archived === 0 ? position++ : null;
      expect((await findTask(t.database.kysely, 'brd_1', row.id))?.position, row.id).toBe(expected);
    }
  }

  it('answers appends, moves, archiving and deletes', async () => {
    for (let i = 1; i <= 5; i++) await insert(`${laneId}_t${i}`, i);
    await expectPositionsOf(laneId);
    await insert(`${laneId}_t6`, 6);
    await insert(`${laneId}_t7`, 7);
    await expectPositionsOf(laneId);
    // Inserted between others (not an append).
    await insert(`${laneId}_t8`, 2.5);
    await expectPositionsOf(laneId);
    await t.database.kysely
      .updateTable('tasks')
      .set({ rank: 0.5 })
      .where('id', '=', `${laneId}_t5`)
      .execute();
    await expectPositionsOf(laneId);
    await t.database.kysely
      .updateTable('tasks')
      .set({ archived: 1 })
      .where('id', '=', `${laneId}_t1`)
      .execute();
    await expectPositionsOf(laneId);
    await t.database.kysely
      .updateTable('tasks')
      .set({ archived: 0, rank: 100 })
      .where('id', '=', `${laneId}_t1`)
      .execute();
    await expectPositionsOf(laneId);
    await t.database.kysely.deleteFrom('tasks').where('id', '=', `${laneId}_t3`).execute();
    await expectPositionsOf(laneId);
    // A title change does not touch the order.
    await t.database.kysely
      .updateTable('tasks')
      .set({ title: 'x' })
      .where('id', '=', `${laneId}_t2`)
      .execute();
    await expectPositionsOf(laneId);
  });

  it('answers many appends after the lane was read, and appends to a lane read empty', async () => {
    await expectPositionsOf(laneId);
    await insert(`${laneId}_first`, 1);
    await expectPositionsOf(laneId);
    for (let i = 2; i <= 100; i++) await insert(`${laneId}_t${String(i).padStart(3, '0')}`, i);
    // The last ones first: each is counted among the appends, or the lane read again.
    const ids = (
      await t.database.kysely.selectFrom('tasks').select('id').where('lane_id', '=', laneId).execute()
    ).map((row) => row.id);
    for (const id of ids.reverse()) {
      const task = await findTask(t.database.kysely, 'brd_1', id);
      expect(task?.position, id).toBe(task ? task.rank - 1 : -1);
    }
    await expectPositionsOf(laneId);
  });

  it('answers moves between lanes for both lanes', async () => {
    const other = laneId;
    await insert(`${other}_o1`, 1);
    await insert(`${other}_o2`, 2);
    await expectPositionsOf(other);
    const lane2 = `${laneId}_b`;
    await t.database.kysely
      .insertInto('lanes')
      .values({ id: lane2, board_id: 'brd_1', name: 'L2', position: 999, created_at: NOW, updated_at: NOW })
      .execute();
    await insert(`${lane2}_x1`, 1, lane2);
    await insert(`${lane2}_x2`, 2, lane2);
    await expectPositionsOf(lane2);
    await t.database.kysely
      .updateTable('tasks')
      .set({ lane_id: lane2, rank: 1.5 })
      .where('id', '=', `${other}_o1`)
      .execute();
    await expectPositionsOf(other);
    await expectPositionsOf(lane2);
  });

  it('is not misled by a rolled-back transaction', async () => {
    for (let i = 1; i <= 4; i++) await insert(`${laneId}_t${i}`, i);
    await expectPositionsOf(laneId);
    await expect(
      t.database.kysely.transaction().execute(async (trx) => {
        await trx.updateTable('tasks').set({ rank: 0 }).where('id', '=', `${laneId}_t4`).execute();
        // Inside the transaction its own writes count.
        expect((await findTask(trx, 'brd_1', `${laneId}_t4`))?.position).toBe(0);
        await trx
          .insertInto('tasks')
          .values({
            id: `${laneId}_ghost`,
            board_id: 'brd_1',
            lane_id: laneId,
            short_id: `s${laneId}_ghost`,
            title: 'ghost',
            description: '',
            priority: 0,
            tags: '[]',
            archived: 0,
            rank: 50,
            created_at: NOW,
            updated_at: NOW,
            last_turn_at: null,
          })
          .execute();
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await expectPositionsOf(laneId);
    await insert(`${laneId}_t5`, 5);
    await expectPositionsOf(laneId);
  });

  it("reports an append's position as the lane's active count, in and after transactions", async () => {
    const slot = () =>
      t.database.kysely.transaction().execute((trx) => appendSlot(trx, 'sqlite', 'brd_1', laneId));
    expect(await slot()).toMatchObject({ position: 0 });
    for (let i = 1; i <= 3; i++) await insert(`${laneId}_t${i}`, i);
    expect(await slot()).toEqual({ position: 3, rank: 4 });
    await expectPositionsOf(laneId);
    await t.database.kysely
      .updateTable('tasks')
      .set({ archived: 1 })
      .where('id', '=', `${laneId}_t2`)
      .execute();
    expect(await slot()).toEqual({ position: 2, rank: 4 });
    await expect(
      t.database.kysely.transaction().execute(async (trx) => {
        await trx.deleteFrom('tasks').where('id', '=', `${laneId}_t1`).execute();
        expect(await appendSlot(trx, 'sqlite', 'brd_1', laneId)).toEqual({ position: 1, rank: 4 });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await slot()).toEqual({ position: 2, rank: 4 });
    expect(
      await t.database.kysely.transaction().execute((trx) => appendSlot(trx, 'sqlite', 'brd_1', 'lane_none')),
    ).toBeUndefined();
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

/** A task row of board brd_1, straight into the table (the cache must follow writes it did not make). */
function taskRow(id: string, rank: number, lane: string) {
  return {
    id,
    board_id: 'brd_1',
    lane_id: lane,
    short_id: `s${id}`,
    title: id,
    description: '',
    priority: 0,
    tags: '[]',
    archived: 0,
    rank,
    created_at: NOW,
    updated_at: NOW,
    last_turn_at: null,
  };
}
