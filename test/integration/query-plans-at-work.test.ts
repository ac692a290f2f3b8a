import type { Kysely } from 'kysely';
import { expect, it } from 'vitest';
import { readCardRows } from '../../src/db/repositories/board-view.js';
import type { DB } from '../../src/db/schema.js';
import { describeEachDialect } from '../support/dialects.js';
import { BOARDS, NOW, seedTasksAndTurns, TASKS_PER_BOARD, useQueryPlans } from './query-plans-fixture.js';

const ACTIVITIES = 12_000;
/** One activity a second up to NOW: the last 10 minutes hold 600 of them, across every board. */
const at = (i: number) => new Date(Date.parse(NOW) - (ACTIVITIES - i) * 1000).toISOString();

async function seedActivities(db: Kysely<DB>): Promise<void> {
  await seedTasksAndTurns(db);
  const rows = Array.from({ length: ACTIVITIES }, (_, i) => {
    const board = i % BOARDS;
    const agent = i % 3 === 0;
    return {
      id: i + 1,
      board_id: `brd_${board}`,
      task_id: `task_brd_${board}_${i % TASKS_PER_BOARD}`,
      type: i % 5 === 0 ? 'turns.captured' : 'task.updated',
      actor_kind: agent ? ('agent' as const) : ('user' as const),
      actor_id: agent ? `agt_${i % 4}` : 'usr_1',
      actor_name: agent ? `Agent ${i % 4}` : 'Ada',
      origin: i % 7 === 0 ? ('mcp' as const) : agent ? ('api' as const) : ('ui' as const),
      data: '{"source":"claude"}',
      created_at: at(i),
    };
  });
  for (let i = 0; i < rows.length; i += 400)
    await db
      .insertInto('activities')
      .values(rows.slice(i, i + 400))
      .execute();
}

/* The "at work" mark's read: the board's slice of the last 10 minutes, not its whole history. */
describeEachDialect('query plan of the "at work" mark', (dialect) => {
  const q = useQueryPlans(dialect, seedActivities);
  const since = new Date(Date.parse(NOW) - 10 * 60 * 1000).toISOString();

  it('reads the board’s slice of the window through (board_id, id), never the whole history', async () => {
    for (const taskIds of [undefined, ['task_brd_3_3', 'task_brd_3_23']]) {
      const plan = await q.plansOf(async (db) => {
        const rows = await readCardRows(db, {
          boardId: 'brd_3',
          includeArchived: false,
          agentSince: since,
          ...(taskIds ? { taskIds } : {}),
        });
        expect(rows.agentWork.length).toBeGreaterThan(0);
        expect(rows.agentWork.every((row) => row.last_at >= since)).toBe(true);
      });
      // The board's slice is a range of (board_id, id) from the window's first id (for a few cards,
      // (task_id, id) instead). That id is read back
      // from the newest one (the primary key or rowid, backwards, LIMIT 1): as many rows as the window
      // holds, whatever the history's size (SQLite shows that as a SCAN of the rowid order).
      q.expectIndexed(
        plan,
        dialect === 'sqlite'
          ? /SEARCH activities USING INDEX activities_(board_idx \(board_id|task_idx \(task_id)=\? AND id>\?\)/
          : /activities_(board|task)_idx .*\n\s+Index Cond: .*\(id > COALESCE/,
      );
      expect(plan).not.toMatch(/Seq Scan on activities\b/);
    }
  });
});
