import pg from 'pg';
import { expect, it } from 'vitest';
import { describeEachDialect, useTestApp } from '../support/dialects.js';
import { waitUntil } from '../support/wait.js';
import { createBoard, createTasks, laneTitles, type TaskData } from './task-fixtures.js';

/*
 * Tasks are ordered by a stored rank and their positions computed when reading (docs/decisions.md,
 * "Task ranks"): appends to one lane take no lane lock, and what the API shows stays the dense
 * 0..n-1 index.
 */

/** How many sessions wait for a lock `holder` holds. */
async function blockedBy(holder: pg.Client): Promise<number> {
  const { rows } = await holder.query<{ n: number }>(
    'select count(*)::int as n from pg_stat_activity where pg_backend_pid() = any(pg_blocking_pids(pid))',
  );
  return rows[0]?.n ?? 0;
}

async function waitForBlocked(holder: pg.Client, count: number): Promise<void> {
  await waitUntil(`${count} sessions waiting for the lock`, async () =>
    (await blockedBy(holder)) >= count ? true : undefined,
  );
  expect(await blockedBy(holder)).toBe(count);
}

describeEachDialect('task ranks', (dialect) => {
  const t = useTestApp(dialect);

  async function ranksInListOrder(laneId: string): Promise<Array<{ id: string; rank: number }>> {
    return t.db.database.kysely
      .selectFrom('tasks')
      .select(['id', 'rank'])
      .where('lane_id', '=', laneId)
      .where('archived', '=', 0)
      .orderBy('rank')
      .orderBy('id')
      .execute();
  }

  it('keeps positions dense through moves that exhaust the doubles between two neighbours', async () => {
    const fx = await createBoard(t, ['A']);
    const laneId = fx.laneIds[0] as string;
    const tasks = await createTasks(t, fx, laneId, ['first', 'second', 'third', 'fourth']);
    const expected = tasks.map((task) => task.title);
    const lastRank = Math.max(...(await ranksInListOrder(laneId)).map((row) => row.rank));
    // Each move puts the last task right after the first: its rank halves the gap next to the first
    // task's, and after about 50 halvings no double is left between them and the lane is renumbered.
    let renumbered = false;
    for (let i = 0; i < 70; i++) {
      const last = expected.pop() as string;
      expected.splice(1, 0, last);
      const lastTask = tasks.find((task) => task.title === last) as TaskData;
      const res = await t.request(fx.key, 'POST', `${fx.url}/tasks/${lastTask.id}/move`, {
        laneId,
        position: 1,
      });
      expect(res.json(), `move ${i}`).toEqual({ data: { id: lastTask.id, laneId, position: 1 } });
      // Only a renumbering draws ranks past the last one here.
      const ranks = (await ranksInListOrder(laneId)).map((row) => row.rank);
      renumbered ||= Math.max(...ranks) > lastRank;
    }
    expect(renumbered).toBe(true);
    expect(await laneTitles(t, fx, laneId)).toEqual(expected);
    const ranks = (await ranksInListOrder(laneId)).map((row) => row.rank);
    expect(new Set(ranks).size).toBe(ranks.length);
    for (const task of tasks) {
      const res = await t.request(fx.key, 'GET', `${fx.url}/tasks/${task.id}`);
      expect(res.json().data.position).toBe(expected.indexOf(task.title));
    }
  });

  it('archiving takes a task out of the order; unarchiving appends it; deleting leaves no gap', async () => {
    const fx = await createBoard(t, ['A']);
    const laneId = fx.laneIds[0] as string;
    const [a, b, c] = (await createTasks(t, fx, laneId, ['a', 'b', 'c', 'd'])) as TaskData[];
    const patch = (task: TaskData, body: unknown) =>
      t.request(fx.key, 'PATCH', `${fx.url}/tasks/${task.id}`, body);
    expect((await patch(b as TaskData, { archived: true })).statusCode).toBe(200);
    expect(await laneTitles(t, fx, laneId)).toEqual(['a', 'c', 'd']);
    const archived = await t.request(fx.key, 'GET', `${fx.url}/tasks/${(b as TaskData).id}`);
    expect(archived.json().data.position).toBeNull();
    expect((await patch(b as TaskData, { archived: false })).statusCode).toBe(200);
    expect(await laneTitles(t, fx, laneId)).toEqual(['a', 'c', 'd', 'b']);
    expect((await t.request(fx.key, 'DELETE', `${fx.url}/tasks/${(a as TaskData).id}`)).statusCode).toBe(204);
    expect(await laneTitles(t, fx, laneId)).toEqual(['c', 'd', 'b']);
    const detail = await t.request(fx.key, 'GET', `${fx.url}/tasks/${(c as TaskData).id}`);
    expect(detail.json().data.position).toBe(0);
    const created = await t.request(fx.key, 'POST', `${fx.url}/tasks`, { laneId, title: 'e' });
    expect(created.json().data.position).toBe(3);
    expect(await laneTitles(t, fx, laneId)).toEqual(['c', 'd', 'b', 'e']);
  });

  // PostgreSQL only: the SQLite app's one connection runs transactions one at a time.
  it.skipIf(dialect === 'sqlite')(
    'serves 32 concurrent creates to one lane, listed 0..n-1 in rank order',
    async () => {
      const fx = await createBoard(t, ['A', 'B']);
      const laneId = fx.laneIds[0] as string;
      const [existing] = (await createTasks(t, fx, laneId, ['existing'])) as TaskData[];
      const responses = await Promise.all(
        Array.from({ length: 32 }, (_, i) =>
          t.request(fx.key, 'POST', `${fx.url}/tasks`, { laneId, title: `c${i}` }),
        ),
      );
      for (const res of responses) expect(res.statusCode, res.body).toBe(201);
      const created = responses.map((res) => res.json().data as TaskData);
      // Each reports the tasks its own transaction saw before it: at least the one there before, at
      // most all the others.
      for (const task of created) {
        expect(task.position).toBeGreaterThanOrEqual(1);
        expect(task.position).toBeLessThanOrEqual(32);
      }

      const list = await t.request(fx.key, 'GET', `${fx.url}/tasks?laneId=${laneId}`);
      const items = list.json().data as TaskData[];
      expect(items.map((task) => task.position)).toEqual(items.map((_, i) => i));
      expect(items.map((task) => task.id)).toEqual((await ranksInListOrder(laneId)).map((row) => row.id));
      expect(items.map((task) => task.id).sort()).toEqual(
        [(existing as TaskData).id, ...created.map((task) => task.id)].sort(),
      );
      expect(items[0]?.title).toBe('existing');
    },
  );

  it.skipIf(dialect === 'sqlite')(
    'a create does not wait for a transaction holding the lane order lock; a move does',
    async () => {
      const fx = await createBoard(t, ['A']);
      const laneId = fx.laneIds[0] as string;
      const [first] = (await createTasks(t, fx, laneId, ['first', 'second'])) as TaskData[];
      const holder = new pg.Client({ connectionString: t.db.databaseUrl as string });
      await holder.connect();
      try {
        await holder.query('begin');
        // The lock moves take (lockLaneOrder). A lane delete's FOR UPDATE would (rightly) also hold
        // creates: the foreign-key check of the insert takes KEY SHARE on the lane.
        await holder.query('select id from lanes where id = $1 for no key update', [laneId]);
        let moved = false;
        const move = t
          .request(fx.key, 'POST', `${fx.url}/tasks/${(first as TaskData).id}/move`, { laneId })
          .then((res) => {
            moved = true;
            return res;
          });
        await waitForBlocked(holder, 1);
        const created = await t.request(fx.key, 'POST', `${fx.url}/tasks`, { laneId, title: 'third' });
        expect(created.statusCode, created.body).toBe(201);
        expect(created.json().data.position).toBe(2);
        expect(moved).toBe(false);
        expect(await blockedBy(holder)).toBe(1);
        await holder.query('commit');
        expect((await move).json().data.position).toBe(2);
        expect(await laneTitles(t, fx, laneId)).toEqual(['second', 'third', 'first']);
      } finally {
        await holder.end();
      }
    },
  );

  it.skipIf(dialect === 'sqlite')(
    'a create waiting for a lane delete that holds the board answers 400 once the lane is gone',
    async () => {
      const fx = await createBoard(t, ['A', 'B']);
      const laneId = fx.laneIds[0] as string;
      await createTasks(t, fx, laneId, ['first']);
      const holder = new pg.Client({ connectionString: t.db.databaseUrl as string });
      await holder.connect();
      try {
        // What a lane delete does: the board FOR UPDATE, then the lane (and its tasks) deleted.
        await holder.query('begin');
        await holder.query('select id from boards where id = $1 for update', [fx.boardId]);
        const create = t.request(fx.key, 'POST', `${fx.url}/tasks`, { laneId, title: 'late' });
        await waitForBlocked(holder, 1);
        await holder.query('delete from lanes where id = $1', [laneId]);
        await holder.query('commit');
        const res = await create;
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().error.code).toBe('validation_error');
      } finally {
        await holder.end();
      }
    },
  );
});
