import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import { appendSlot } from '../../src/db/repositories/task-ranks.js';
import { findTask, listTasks } from '../../src/db/repositories/tasks.js';
import { describeEachDialect } from '../support/dialects.js';
import { atMigration, insertBoardWithLane } from './migration-fixtures.js';

const NOW = '2026-11-23T10:00:00.000Z';

describeEachDialect('migration 008-task-ranks', (dialect) => {
  it('keeps the stored order and positions; appends sort after every migrated task', async () => {
    await atMigration(dialect, '007-performance-indexes', async (database) => {
      const db = database.kysely;
      await insertBoardWithLane(db, NOW);
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
    });
  });
});
