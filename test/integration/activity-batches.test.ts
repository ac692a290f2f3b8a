import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertActivity } from '../../src/db/repositories/activities.js';
import { RECENT_ACTIVITIES_BATCH } from '../../src/db/repositories/recent-activities.js';
import { CLI_OPERATOR } from '../../src/domain/actor.js';
import { API } from '../support/api.js';
import { createTestDatabase, openSecondConnection } from '../support/database.js';
import { describeEachDialect, useTestApp } from '../support/dialects.js';

// On SQLite new activities gather in `recent_activities` and move into `activities` in batches
// (migration 013); readers must see one history either way, on both databases.
describeEachDialect('activity history across recent batches', (dialect) => {
  let key: string;

  const t = useTestApp(dialect);
  beforeAll(async () => {
    key = (await t.createKey('all', 'Batch bot')).key;
  });

  const call = async (method: 'POST' | 'PATCH', url: string, body: unknown) => {
    const res = await t.request(key, method, `${API}${url}`, body);
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json().data as { id: string };
  };

  async function recentCount(): Promise<number> {
    const rows = await sql<{ n: number }>`select count(*) as n from recent_activities`.execute(
      t.db.database.kysely,
    );
    return Number(rows.rows[0]?.n);
  }

  it('pages a task history and a board history of more than two batches, newest first, none lost', async () => {
    const board = await call('POST', '/boards', { name: 'Long history' });
    const lane = await call('POST', `/boards/${board.id}/lanes`, { name: 'Todo' });
    const task = await call('POST', `/boards/${board.id}/tasks`, { title: 't0', laneId: lane.id });
    const updates = 2 * RECENT_ACTIVITIES_BATCH + 20;
    for (let i = 1; i <= updates; i++)
      await call('PATCH', `/boards/${board.id}/tasks/${task.id}`, { title: `t${i}` });
    if (dialect === 'sqlite') expect(await recentCount()).toBeLessThan(RECENT_ACTIVITIES_BATCH);

    const titles: string[] = [];
    const ids: number[] = [];
    let before: number | undefined;
    do {
      const page = await t.services.activities.listForTask(CLI_OPERATOR, board.id, task.id, {
        limit: 50,
        ...(before === undefined ? {} : { before }),
      });
      for (const activity of page.data) {
        ids.push(activity.id);
        const data = activity.data as { title?: string; changes?: { title?: string } };
        titles.push(data.changes?.title ?? data.title ?? '');
      }
      before = page.nextBefore ?? undefined;
    } while (before !== undefined);
    expect(titles).toEqual(Array.from({ length: updates + 1 }, (_, i) => `t${updates - i}`));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(new Set(ids).size).toBe(ids.length);

    const boardPage = await t.services.activities.listForBoard(CLI_OPERATOR, board.id, { limit: 100 });
    expect(boardPage.data[0]?.id).toBe(ids[0]);
    const all = await t.services.activities.listForBoard(CLI_OPERATOR, board.id, {
      limit: 100,
      before: ids[ids.length - 1],
    });
    expect(all.data.map((a) => a.type)).toEqual(['lane.created', 'board.created']);
  });

  it('hands out increasing ids when a batch has just moved', async () => {
    const board = await call('POST', '/boards', { name: 'Ids' });
    const seen: number[] = [];
    for (let i = 0; i < RECENT_ACTIVITIES_BATCH + 5; i++) {
      const lane = await call('POST', `/boards/${board.id}/lanes`, { name: `L${i}` });
      const list = await t.services.activities.listForBoard(CLI_OPERATOR, board.id, { limit: 1 });
      expect(list.data[0]?.data).toMatchObject({ lane_id: lane.id });
      seen.push(list.data[0]?.id as number);
    }
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(new Set(seen).size).toBe(seen.length);
  });
});

// Each connection remembers the id its next activity takes; another connection's inserts must not
// make two activities share an id (SQLite: two connections on one file, as a CLI process beside the
// server).
describe('activity ids with two connections on one SQLite file', () => {
  it('stay unique and increasing when two connections insert in turn, across batch moves', async () => {
    const first = await createTestDatabase('sqlite');
    const second = openSecondConnection(first);
    try {
      const ids: number[] = [];
      for (let i = 0; i < RECENT_ACTIVITIES_BATCH + 40; i++) {
        const writer = i % 3 === 0 ? second : first.database;
        ids.push(await insertActivity(writer.kysely, activity(`brd_${i % 2}`, i)));
      }
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(new Set(ids).size).toBe(ids.length);
      const stored = await sql<{ n: number }>`select count(*) as n from all_activities`.execute(
        first.database.kysely,
      );
      expect(Number(stored.rows[0]?.n)).toBe(ids.length);
    } finally {
      await second.close();
      await first.drop();
    }
  });
});

function activity(boardId: string, n: number) {
  return {
    board_id: boardId,
    task_id: null,
    type: 'board.updated',
    actor_kind: 'user' as const,
    actor_id: 'usr_ada',
    actor_name: 'Ada',
    origin: 'ui' as const,
    data: JSON.stringify({ n }),
    created_at: new Date().toISOString(),
  };
}
