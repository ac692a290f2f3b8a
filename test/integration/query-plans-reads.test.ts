import { expect, it } from 'vitest';
import { findActiveKeyByHash } from '../../src/db/repositories/api-keys.js';
import { appendSlot, boardLaneAndAppendRank } from '../../src/db/repositories/task-ranks.js';
import { countLaneTasks, findTask, listTasks } from '../../src/db/repositories/tasks.js';
import { listTurnsPage } from '../../src/db/repositories/turns.js';
import { describeEachDialect } from '../support/dialects.js';
import { seedTasksAndTurns, useQueryPlans } from './query-plans-fixture.js';

/* The hot reads: key lookup, task lists and detail, appends, turn pages (see query-plans-fixture.ts). */
describeEachDialect('query plans of the hot reads', (dialect) => {
  const q = useQueryPlans(dialect, seedTasksAndTurns);

  it('key lookup by hash uses the unique key_hash index', async () => {
    const plan = await q.plansOf(async (db) => {
      expect(await findActiveKeyByHash(db, 'hash_3')).toMatchObject({ id: 'key_3' });
    });
    q.expectIndexed(
      plan,
      dialect === 'sqlite' ? /SEARCH k USING INDEX \w*api_keys\w*/ : /Index Scan .*api_keys/,
    );
  });

  it('the task list of a board and of a lane use the board index', async () => {
    const board = await q.plansOf(async (db) => {
      expect(await listTasks(db, 'brd_3', { includeArchived: false })).toHaveLength(135);
    });
    q.expectIndexed(board, dialect === 'sqlite' ? /SEARCH tasks USING INDEX/ : /Index.* on tasks/);
    const lane = await q.plansOf(async (db) => {
      const rows = await listTasks(db, 'brd_3', { includeArchived: true, laneId: 'lane_brd_3_1' });
      expect(rows).toHaveLength(38);
    });
    q.expectIndexed(lane, dialect === 'sqlite' ? /SEARCH tasks USING INDEX/ : /Index.* on tasks/);
  });

  it('task detail reads the task by its primary key and counts its position in the lane rank index', async () => {
    const detail = await q.plansOf(async (db) => {
      expect(await findTask(db, 'brd_2', 'task_brd_2_7')).toMatchObject({ title: 'T7', position: 1 });
    });
    q.expectIndexed(
      detail,
      dialect === 'sqlite' ? /SEARCH tasks USING INDEX sqlite_autoindex_tasks_1/ : /tasks_pkey/,
    );
    // The count is a range of the index: the lane's active tasks, then ranks before the task's (SQLite
    // ranges on the rank and filters the id of an equal rank in the index; PostgreSQL ranges on both).
    expect(detail).toMatch(
      dialect === 'sqlite'
        ? /SEARCH earlier USING COVERING INDEX tasks_lane_rank_idx \(lane_id=\? AND archived=\? AND (rank<\?|\(rank,id\)<\(\?,\?\))\)/
        : /(Index Only Scan using|Bitmap Index Scan on) tasks_lane_rank_idx.*\n\s+Index Cond: \(\(lane_id = tasks.lane_id\) AND \(archived = 0\) AND \(ROW\(rank, id\) < ROW\(tasks.rank, tasks.id\)\)\)/,
    );
    const count = await q.plansOf(async (db) => {
      expect(await countLaneTasks(db, 'lane_brd_2_0')).toBe(38);
    });
    q.expectIndexed(count, /tasks_lane_rank_idx/);
  });

  it('an append reads its position and rank from the lane rank index, with no lock', async () => {
    const plan = await q.plansOf(async (db) => {
      expect(await appendSlot(db, dialect, 'brd_2', 'lane_brd_2_0')).toMatchObject({ position: 38 });
    });
    q.expectIndexed(plan, /tasks_lane_rank_idx/);
    expect(plan).not.toMatch(/LockRows/);
    if (dialect === 'sqlite') {
      // A create's one statement for the board, the lane and the rank: primary keys and the rank index.
      const created = await q.plansOf(async (db) => {
        expect(await boardLaneAndAppendRank(db, 'brd_2', 'lane_brd_2_0')).toMatchObject({ rank: 38 });
      });
      q.expectIndexed(created, /SEARCH boards USING COVERING INDEX sqlite_autoindex_boards_1 \(id=\?\)/);
      q.expectIndexed(created, /SEARCH lanes USING INDEX sqlite_autoindex_lanes_1 \(id=\?\)/);
      q.expectIndexed(created, /tasks_lane_rank_idx/);
    }
  });

  it('a page of turns after a cursor is a range of the (task, captured_at, id) index', async () => {
    const plan = await q.plansOf(async (db) => {
      const page = await listTurnsPage(db, {
        taskId: 'task_brd_1_1',
        source: null,
        after: null,
        from: { capturedAt: '2026-11-23T10:05:00.000Z', id: 'turn_000000' },
        limit: 50,
        newestFirst: false,
      });
      expect(page.length).toBeGreaterThan(0);
    });
    // The range starts at the cursor (not a filter over the task's turns from the first one).
    q.expectIndexed(
      plan,
      dialect === 'sqlite'
        ? /turns_task_captured_idx \(task_id=\? AND \(captured_at,id\)>\(\?,\?\)\)/
        : /turns_task_captured_idx on turns.*\n\s+Index Cond: \(\(task_id = .* AND \(ROW\(captured_at, id\) > ROW\(/,
    );
  });
});
