import { beforeEach, describe, expect, it } from 'vitest';
import { appendSlot } from '../../src/db/repositories/task-ranks.js';
import { findTask } from '../../src/db/repositories/tasks.js';
import { NOW, usePositionLanes } from './task-positions-fixture.js';

/* Positions of task detail on SQLite, from the per-lane cache (see task-positions-fixture.ts). */
describe('task positions cached on SQLite', () => {
  const lanes = usePositionLanes();
  const { t, insert, expectPositionsOf } = lanes;
  let laneId: string;
  beforeEach(() => {
    laneId = lanes.laneId();
  });

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
});
