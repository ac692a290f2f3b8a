import { beforeAll, beforeEach, expect, it } from 'vitest';
import { API } from '../support/api.js';
import { describeEachDialect, useTestApp } from '../support/dialects.js';
import { ManualClock, RecordingEvents } from './task-fixtures.js';

interface LaneBody {
  id: string;
  name: string;
  position: number;
  createdAt: string;
  updatedAt: string;
}

describeEachDialect('lanes', (dialect) => {
  let key: string;
  const clock = new ManualClock(Date.parse('2026-11-21T10:00:00.000Z'));
  const events = new RecordingEvents();

  const t = useTestApp(dialect, { events, clock });
  beforeAll(async () => {
    key = (await t.createKey('all')).key;
  });
  beforeEach(() => {
    clock.advance(1000);
    events.take();
  });

  const boardsUrl = `${API}/boards`;
  const lanesUrl = (boardId: string) => `${API}/boards/${boardId}/lanes`;

  async function newBoard(...laneNames: string[]): Promise<{ boardId: string; lanes: LaneBody[] }> {
    const boardId = (await t.request(key, 'POST', boardsUrl, { name: 'Lanes' })).json().data.id as string;
    const lanes: LaneBody[] = [];
    for (const name of laneNames) {
      lanes.push((await t.request(key, 'POST', lanesUrl(boardId), { name })).json().data);
    }
    events.take();
    return { boardId, lanes };
  }

  async function order(boardId: string): Promise<string[]> {
    const res = await t.request(key, 'GET', lanesUrl(boardId));
    expect(res.statusCode).toBe(200);
    const lanes = res.json().data as LaneBody[];
    expect(lanes.map((l) => l.position)).toEqual(lanes.map((_, i) => i));
    return lanes.map((l) => l.name);
  }

  const patch = (boardId: string, laneId: string, body: unknown) =>
    t.request(key, 'PATCH', `${lanesUrl(boardId)}/${laneId}`, body);

  it('a new board has no lanes; new lanes are appended with dense positions', async () => {
    const { boardId } = await newBoard();
    expect((await t.request(key, 'GET', lanesUrl(boardId))).json()).toEqual({ data: [] });

    const created: LaneBody[] = [];
    for (const name of ['Todo', '  Doing  ', 'Done']) {
      const res = await t.request(key, 'POST', lanesUrl(boardId), { name });
      expect(res.statusCode).toBe(201);
      created.push(res.json().data);
    }
    expect(created.map((l) => [l.name, l.position])).toEqual([
      ['Todo', 0],
      ['Doing', 1],
      ['Done', 2],
    ]);
    const lane = created[0] as LaneBody;
    expect(lane.id).toMatch(/^lane_[0-9A-Za-z]{22}$/);
    expect(lane.createdAt).toBe(new Date(clock.ms).toISOString());
    expect(lane.updatedAt).toBe(lane.createdAt);
    expect((await t.request(key, 'GET', lanesUrl(boardId))).json().data).toEqual(created);

    expect(events.take()).toEqual(
      created.map((l) => ({
        type: 'lane.created',
        boardId,
        data: { lane_id: l.id, name: l.name, position: l.position },
      })),
    );
  });

  it('PATCH position moves the lane there and shifts the others', async () => {
    const { boardId, lanes } = await newBoard('A', 'B', 'C', 'D');
    const [a, , , d] = lanes as [LaneBody, LaneBody, LaneBody, LaneBody];

    const moved = await patch(boardId, d.id, { position: 0 });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().data).toMatchObject({ id: d.id, name: 'D', position: 0 });
    expect(await order(boardId)).toEqual(['D', 'A', 'B', 'C']);

    await patch(boardId, a.id, { position: 2 });
    expect(await order(boardId)).toEqual(['D', 'B', 'A', 'C']);

    expect(events.take()).toEqual([
      { type: 'lane.updated', boardId, data: { lane_id: d.id, name: 'D', position: 0 } },
      { type: 'lane.updated', boardId, data: { lane_id: a.id, name: 'A', position: 2 } },
    ]);
  });

  it('a position past the end means last; a negative one is refused', async () => {
    const { boardId, lanes } = await newBoard('A', 'B', 'C');
    const [a, b] = lanes as [LaneBody, LaneBody];

    const res = await patch(boardId, a.id, { position: 99 });
    expect(res.json().data.position).toBe(2);
    expect(await order(boardId)).toEqual(['B', 'C', 'A']);

    const negative = await patch(boardId, b.id, { position: -1 });
    expect(negative.statusCode).toBe(400);
    expect(negative.json().error).toMatchObject({ code: 'validation_error' });
    expect(negative.json().error.message).toContain('`position`');
    expect(await order(boardId)).toEqual(['B', 'C', 'A']);
  });

  it('renames (trimmed), moves and renames at once, and stamps updatedAt', async () => {
    const { boardId, lanes } = await newBoard('A', 'B');
    const [a, b] = lanes as [LaneBody, LaneBody];

    const renamed = await patch(boardId, a.id, { name: '  Backlog ' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().data).toEqual({
      ...a,
      name: 'Backlog',
      updatedAt: new Date(clock.ms).toISOString(),
    });

    const both = await patch(boardId, b.id, { name: 'First', position: 0 });
    expect(both.json().data).toMatchObject({ name: 'First', position: 0 });
    expect(await order(boardId)).toEqual(['First', 'Backlog']);

    expect(events.take()).toEqual([
      { type: 'lane.updated', boardId, data: { lane_id: a.id, name: 'Backlog', position: 0 } },
      { type: 'lane.updated', boardId, data: { lane_id: b.id, name: 'First', position: 0 } },
    ]);
  });

  it('a PATCH that changes nothing answers the lane and fires no lane.updated', async () => {
    const { boardId, lanes } = await newBoard('A', 'B');
    const [a, b] = lanes as [LaneBody, LaneBody];
    for (const [lane, body] of [
      [a, {}],
      [a, { name: 'A' }],
      [a, { name: ' A ' }],
      [a, { position: 0 }],
      [b, { position: 1 }],
      [b, { position: 50 }],
      [b, { name: 'B', position: 7 }],
    ] as const) {
      const res = await patch(boardId, lane.id, body);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual(lane);
    }
    expect(events.take()).toEqual([]);
    expect(await order(boardId)).toEqual(['A', 'B']);
  });

  it('deleting a lane closes the gap and deletes its tasks', async () => {
    const { boardId, lanes } = await newBoard('A', 'B', 'C', 'D');
    const [, b] = lanes as [LaneBody, LaneBody];
    await t.db.database.kysely
      .insertInto('tasks')
      .values({
        id: 'task_in_lane_b',
        board_id: boardId,
        lane_id: b.id,
        short_id: `lb${dialect.slice(0, 2)}gone`,
        title: 'In B',
        description: '',
        priority: 0,
        tags: '[]',
        archived: 0,
        rank: 0,
        created_at: new Date(clock.ms).toISOString(),
        updated_at: new Date(clock.ms).toISOString(),
      })
      .execute();

    const res = await t.request(key, 'DELETE', `${lanesUrl(boardId)}/${b.id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(await order(boardId)).toEqual(['A', 'C', 'D']);
    const task = await t.db.database.kysely
      .selectFrom('tasks')
      .select('id')
      .where('id', '=', 'task_in_lane_b')
      .executeTakeFirst();
    expect(task).toBeUndefined();
    expect(events.take()).toEqual([{ type: 'lane.deleted', boardId, data: { lane_id: b.id } }]);

    const again = await t.request(key, 'DELETE', `${lanesUrl(boardId)}/${b.id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().error.code).toBe('not_found');
    expect(events.take()).toEqual([]);
  });

  it('deleting the first and the last lane keeps positions dense', async () => {
    const { boardId, lanes } = await newBoard('A', 'B', 'C');
    const [a, , c] = lanes as [LaneBody, LaneBody, LaneBody];
    await t.request(key, 'DELETE', `${lanesUrl(boardId)}/${a.id}`);
    expect(await order(boardId)).toEqual(['B', 'C']);
    await t.request(key, 'DELETE', `${lanesUrl(boardId)}/${c.id}`);
    expect(await order(boardId)).toEqual(['B']);
    const created = await t.request(key, 'POST', lanesUrl(boardId), { name: 'E' });
    expect(created.json().data.position).toBe(1);
  });

  // PostgreSQL only: on SQLite the app's one connection runs transactions one after another, so this
  // could not catch a locking bug (locking between SQLite processes: sqlite-transactions.test.ts).
  it.skipIf(dialect === 'sqlite')('concurrent moves leave positions exactly 0..n-1', async () => {
    const names = ['L0', 'L1', 'L2', 'L3', 'L4', 'L5', 'L6', 'L7'];
    const { boardId, lanes } = await newBoard(...names);
    // A fixed pseudo-random sequence of moves, so a failure can be replayed.
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    const moves = Array.from({ length: 40 }, () => ({
      lane: lanes[next() % lanes.length] as LaneBody,
      position: next() % (lanes.length + 2),
    }));
    const results = await Promise.all(moves.map((m) => patch(boardId, m.lane.id, { position: m.position })));
    expect(results.map((r) => r.statusCode)).toEqual(moves.map(() => 200));

    const final = (await t.request(key, 'GET', lanesUrl(boardId))).json().data as LaneBody[];
    expect(final.map((l) => l.position)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(final.map((l) => l.name).sort()).toEqual(names);
  });

  // PostgreSQL only: on SQLite the app's one connection runs transactions one after another, so this
  // could not catch a locking bug (locking between SQLite processes: sqlite-transactions.test.ts).
  it.skipIf(dialect === 'sqlite')(
    'concurrent creates and deletes leave positions exactly 0..n-1',
    async () => {
      const { boardId, lanes } = await newBoard('A', 'B', 'C', 'D', 'E', 'F');
      const work = [
        ...lanes
          .filter((_, i) => i % 2 === 0)
          .map((l) => t.request(key, 'DELETE', `${lanesUrl(boardId)}/${l.id}`)),
        ...['G', 'H', 'I', 'J'].map((name) => t.request(key, 'POST', lanesUrl(boardId), { name })),
        ...lanes.filter((_, i) => i % 2 === 1).map((l) => patch(boardId, l.id, { position: 0 })),
      ];
      const statuses = (await Promise.all(work)).map((r) => r.statusCode);
      expect(statuses.filter((s) => s >= 400)).toEqual([]);
      const final = (await t.request(key, 'GET', lanesUrl(boardId))).json().data as LaneBody[];
      expect(final.map((l) => l.position)).toEqual([0, 1, 2, 3, 4, 5, 6]);
      expect(final.map((l) => l.name).sort()).toEqual(['B', 'D', 'F', 'G', 'H', 'I', 'J']);
    },
  );

  it('a lane and its event commit together: a failing event store leaves no lane', async () => {
    const { boardId } = await newBoard('A');
    events.failNext = true;
    const res = await t.request(key, 'POST', lanesUrl(boardId), { name: 'Never' });
    expect(res.statusCode).toBe(500);
    expect(res.json().error.code).toBe('internal_error');
    expect(await order(boardId)).toEqual(['A']);
    expect(events.take()).toEqual([]);
  });

  it('lanes of a missing board are 404 for a key that may see every board', async () => {
    const res = await t.request(key, 'GET', lanesUrl('brd_missing'));
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('not_found');
    const create = await t.request(key, 'POST', lanesUrl('brd_missing'), { name: 'x' });
    expect(create.statusCode).toBe(404);
    expect(events.take()).toEqual([]);
  });
});
