import { expect, it } from 'vitest';
import { describeEachDialect } from '../support/dialects.js';
import {
  type BoardFixture,
  createBoard,
  createTasks,
  expectError,
  laneTitles,
  type TaskData,
  useTaskApp,
} from './task-fixtures.js';

/** A small deterministic generator, so a failing concurrent run can be replayed. */
function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

describeEachDialect('task moves', (dialect) => {
  const { t, events, clock } = useTaskApp(dialect);

  async function boardWithTasks(titles: string[]): Promise<{ fx: BoardFixture; tasks: TaskData[] }> {
    const fx = await createBoard(t, ['A', 'B']);
    const tasks = await createTasks(t, fx, fx.laneIds[0] as string, titles);
    events.take();
    return { fx, tasks };
  }

  function move(fx: BoardFixture, task: TaskData, body: unknown) {
    return t.request(fx.key, 'POST', `${fx.url}/tasks/${task.id}/move`, body);
  }

  it('moves within a lane, shifting the tasks in between, and records task.moved', async () => {
    const { fx, tasks } = await boardWithTasks(['t0', 't1', 't2', 't3']);
    const laneA = fx.laneIds[0] as string;
    const [t0, , , t3] = tasks as [TaskData, TaskData, TaskData, TaskData];

    const later = clock.advance();
    const down = await move(fx, t0, { laneId: laneA, position: 2 });
    expect(down.statusCode).toBe(200);
    expect(down.json()).toEqual({ data: { id: t0.id, laneId: laneA, position: 2 } });
    expect(await laneTitles(t, fx, laneA)).toEqual(['t1', 't2', 't0', 't3']);
    expect(events.take()).toEqual([
      {
        type: 'task.moved',
        boardId: fx.boardId,
        data: { task_id: t0.id, laneId: laneA, position: 2, fromLaneId: laneA, fromPosition: 0 },
      },
    ]);
    expect((await t.request(fx.key, 'GET', `${fx.url}/tasks/${t0.id}`)).json().data.updatedAt).toBe(later);

    const up = await move(fx, t3, { laneId: laneA, position: 0 });
    expect(up.json().data).toEqual({ id: t3.id, laneId: laneA, position: 0 });
    expect(await laneTitles(t, fx, laneA)).toEqual(['t3', 't1', 't2', 't0']);

    // Without a position, and past the end, the task goes last.
    expect((await move(fx, t3, { laneId: laneA })).json().data.position).toBe(3);
    expect(await laneTitles(t, fx, laneA)).toEqual(['t1', 't2', 't0', 't3']);
    expect((await move(fx, t0, { laneId: laneA, position: 99 })).json().data.position).toBe(3);
    expect(await laneTitles(t, fx, laneA)).toEqual(['t1', 't2', 't3', 't0']);
    expect(events.take().map((e) => [e.data.fromPosition, e.data.position])).toEqual([
      [3, 0],
      [0, 3],
      [2, 3],
    ]);
  });

  it('records nothing and keeps updatedAt when the task stays where it is', async () => {
    const { fx, tasks } = await boardWithTasks(['t0', 't1']);
    const laneA = fx.laneIds[0] as string;
    const [t0, t1] = tasks as [TaskData, TaskData];
    clock.advance();
    expect((await move(fx, t0, { laneId: laneA, position: 0 })).json().data).toEqual({
      id: t0.id,
      laneId: laneA,
      position: 0,
    });
    expect((await move(fx, t1, { laneId: laneA })).json().data.position).toBe(1);
    expect((await move(fx, t1, { laneId: laneA, position: 5 })).json().data.position).toBe(1);
    expect(events.take()).toEqual([]);
    expect((await t.request(fx.key, 'GET', `${fx.url}/tasks/${t0.id}`)).json().data.updatedAt).toBe(
      t0.updatedAt,
    );
  });

  it('moves to another lane: the source closes the gap, the target opens one', async () => {
    const { fx, tasks } = await boardWithTasks(['a0', 'a1', 'a2']);
    const [laneA, laneB] = fx.laneIds as [string, string];
    await createTasks(t, fx, laneB, ['b0', 'b1']);
    events.take();
    const [a0, a1, a2] = tasks as [TaskData, TaskData, TaskData];

    const res = await move(fx, a1, { laneId: laneB, position: 1 });
    expect(res.json()).toEqual({ data: { id: a1.id, laneId: laneB, position: 1 } });
    expect(await laneTitles(t, fx, laneA)).toEqual(['a0', 'a2']);
    expect(await laneTitles(t, fx, laneB)).toEqual(['b0', 'a1', 'b1']);
    expect(events.take()).toEqual([
      {
        type: 'task.moved',
        boardId: fx.boardId,
        data: { task_id: a1.id, laneId: laneB, position: 1, fromLaneId: laneA, fromPosition: 1 },
      },
    ]);

    expect((await move(fx, a0, { laneId: laneB })).json().data).toEqual({
      id: a0.id,
      laneId: laneB,
      position: 3,
    });
    expect((await move(fx, a2, { laneId: laneB, position: 50 })).json().data.position).toBe(4);
    expect((await move(fx, a1, { laneId: laneA, position: 0 })).json().data.position).toBe(0);
    expect(await laneTitles(t, fx, laneA)).toEqual(['a1']);
    expect(await laneTitles(t, fx, laneB)).toEqual(['b0', 'b1', 'a0', 'a2']);
    const detail = await t.request(fx.key, 'GET', `${fx.url}/tasks/${a0.id}`);
    expect(detail.json().data).toMatchObject({ laneId: laneB, position: 2 });
  });

  it('rejects bad moves: negative or fractional position, unknown lane, archived task, unknown fields', async () => {
    const { fx, tasks } = await boardWithTasks(['t0', 't1']);
    const other = await createBoard(t, ['X']);
    events.take();
    const laneA = fx.laneIds[0] as string;
    const [t0, t1] = tasks as [TaskData, TaskData];
    const cases: Array<[unknown, string]> = [
      [{ laneId: laneA, position: -1 }, 'position'],
      [{ laneId: laneA, position: 0.5 }, 'position'],
      [{ laneId: laneA, position: '1' }, 'position'],
      [{ position: 0 }, 'laneId'],
      [{ laneId: 'lane_missing' }, 'laneId'],
      [{ laneId: other.laneIds[0] }, 'laneId'],
      [{ laneId: laneA, after: t1.id }, 'after'],
    ];
    for (const [body, field] of cases) expectError(await move(fx, t0, body), 400, 'validation_error', field);

    await t.request(fx.key, 'PATCH', `${fx.url}/tasks/${t1.id}`, { archived: true });
    events.take();
    expectError(await move(fx, t1, { laneId: laneA, position: 0 }), 400, 'validation_error', 'archived');
    expectError(
      await t.request(fx.key, 'POST', `${fx.url}/tasks/task_missing/move`, { laneId: laneA }),
      404,
      'not_found',
    );
    expectError(
      await t.request(other.key, 'POST', `${other.url}/tasks/${t0.id}/move`, { laneId: other.laneIds[0] }),
      404,
      'not_found',
    );
    expect(events.take()).toEqual([]);
    expect(await laneTitles(t, fx, laneA)).toEqual(['t0']);
  });

  // PostgreSQL only: on SQLite the app's one connection runs transactions one after another, so this
  // could not catch a locking bug (locking between SQLite processes: sqlite-transactions.test.ts).
  it.skipIf(dialect === 'sqlite')(
    'keeps positions dense under many concurrent moves, creates, archives, deletes and lane reorders',
    async () => {
      const fx = await createBoard(t, ['A', 'B', 'C']);
      const lanes = fx.laneIds;
      const tasks: TaskData[] = [];
      for (const [i, laneId] of lanes.entries()) {
        tasks.push(
          ...(await createTasks(
            t,
            fx,
            laneId,
            ['0', '1', '2', '3', '4'].map((n) => `L${i}-${n}`),
          )),
        );
      }
      events.take();
      const random = seededRandom(dialect === 'sqlite' ? 7 : 11);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

      const requests: Array<Promise<{ statusCode: number; body: string }>> = [];
      let created = 0;
      let deleted = 0;
      const deletedIds = new Set<string>();
      for (let i = 0; i < 80; i++) {
        const roll = random();
        const task = pick(tasks);
        if (roll < 0.65) {
          const position = random() < 0.2 ? undefined : Math.floor(random() * 8);
          requests.push(
            move(fx, task, { laneId: pick(lanes), ...(position === undefined ? {} : { position }) }),
          );
        } else if (roll < 0.85) {
          created++;
          requests.push(
            t.request(fx.key, 'POST', `${fx.url}/tasks`, { title: `new-${i}`, laneId: pick(lanes) }),
          );
        } else if (roll < 0.91) {
          requests.push(
            t.request(fx.key, 'PATCH', `${fx.url}/tasks/${task.id}`, { archived: random() < 0.5 }),
          );
        } else if (roll < 0.95) {
          // Lane reorders lock the board exclusively; task writes share it first, so neither deadlocks.
          const position = Math.floor(random() * lanes.length);
          requests.push(t.request(fx.key, 'PATCH', `${fx.url}/lanes/${pick(lanes)}`, { position }));
        } else if (!deletedIds.has(task.id)) {
          deletedIds.add(task.id);
          deleted++;
          requests.push(t.request(fx.key, 'DELETE', `${fx.url}/tasks/${task.id}`));
        }
      }
      const responses = await Promise.all(requests);
      for (const res of responses) {
        // A move or archive of a task deleted (or archived) concurrently may fail; nothing else may.
        expect([200, 201, 204, 400, 404], res.body).toContain(res.statusCode);
        if (res.statusCode === 400) expect(res.body).toContain('archived');
      }

      const rows = await t.db.database.kysely
        .selectFrom('tasks')
        .select(['id', 'lane_id', 'rank', 'archived'])
        .where('board_id', '=', fx.boardId)
        .execute();
      expect(rows.length).toBe(tasks.length + created - deleted);
      for (const laneId of lanes) {
        // Positions are computed from the ranks: no two active tasks of a lane may share one.
        const ranks = rows.filter((r) => r.lane_id === laneId && r.archived === 0).map((r) => r.rank);
        expect(new Set(ranks).size, `lane ${laneId}`).toBe(ranks.length);
      }
      for (const row of rows.filter((r) => r.archived === 1)) {
        const res = await t.request(fx.key, 'GET', `${fx.url}/tasks/${row.id}`);
        expect(res.json().data.position).toBeNull();
      }
      // The list agrees with the rows.
      for (const laneId of lanes) await laneTitles(t, fx, laneId);
    },
  );

  // PostgreSQL only: on SQLite the app's one connection runs transactions one after another, so this
  // could not catch a locking bug (locking between SQLite processes: sqlite-transactions.test.ts).
  it.skipIf(dialect === 'sqlite')(
    'serves every one of many concurrent moves of one task, none answered 409',
    async () => {
      const { fx, tasks } = await boardWithTasks(['hot', 'a1', 'a2', 'a3']);
      const [laneA, laneB] = fx.laneIds as [string, string];
      const hot = tasks[0] as TaskData;
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          move(fx, hot, { laneId: i % 2 ? laneA : laneB, position: i % 3 }),
        ),
      );
      expect(results.map((r) => r.statusCode)).toEqual(results.map(() => 200));
      const titles = [...(await laneTitles(t, fx, laneA)), ...(await laneTitles(t, fx, laneB))];
      expect(titles.sort()).toEqual(['a1', 'a2', 'a3', 'hot']);
    },
  );
});
