import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import { searchDocs } from '../../src/db/repositories/search.js';
import type { Executor } from '../../src/db/schema.js';
import { describeEachDialect } from '../support/dialects.js';
import { atMigration, insertBoardWithLane } from './migration-fixtures.js';

const NOW = '2026-11-27T10:00:00.000Z';

const find = (db: Executor, dialect: 'sqlite' | 'postgres', word: string, includeArchived = false) =>
  searchDocs(db, dialect, {
    terms: [{ tokens: [word], excluded: false, prefix: false }],
    boardIds: null,
    kinds: null,
    memberId: null,
    includeArchived,
    limit: 10,
    offset: 0,
  }).then((hits) => hits.map((h) => `${h.kind}:${h.taskId}`));

describeEachDialect('migration 020-search-speed', (dialect) => {
  it('marks the texts of tasks archived before it, and its triggers follow archiving', async () => {
    await atMigration(dialect, '018-notifications', async (database) => {
      const db = database.kysely;
      await insertBoardWithLane(db, NOW);
      for (const [id, title, archived] of [
        ['task_old', 'Harbour crane', 1],
        ['task_new', 'Harbour tug', 0],
      ] as const) {
        await sql`insert into tasks (id, board_id, lane_id, short_id, title, description, rank, archived, created_at, updated_at)
          values (${id}, 'brd', 'lane', ${id}, ${title}, 'Grease the winch', 1, ${archived}, ${NOW}, ${NOW})`.execute(
          db,
        );
        await sql`insert into comments (id, task_id, board_id, body, author_name, author_source, created_at)
          values (${`cmt_${id}`}, ${id}, 'brd', 'The foghorn is loud', 'Ann', 'api', ${NOW})`.execute(db);
      }

      expect(await migrateToLatest(database)).toContain('020-search-speed');

      // The archived task's own text and its comment are left out unless asked for.
      expect(await find(db, dialect, 'crane')).toEqual([]);
      expect(await find(db, dialect, 'crane', true)).toEqual(['task:task_old']);
      expect((await find(db, dialect, 'foghorn')).sort()).toEqual(['comment:task_new']);
      expect((await find(db, dialect, 'foghorn', true)).sort()).toEqual([
        'comment:task_new',
        'comment:task_old',
      ]);

      // A text written to an archived task is archived with it; unarchiving brings all back, archiving
      // takes all away, in the write's own statement.
      await sql`insert into turns (id, task_id, board_id, source, source_id, role, content, captured_at, created_at)
        values ('turn_a', 'task_old', 'brd', 'claude', 'm1', 'assistant', 'Check the gantry rails', ${NOW}, ${NOW})`.execute(
        db,
      );
      await sql`insert into todos (id, task_id, board_id, text, iteration, sort_order, source, created_at, updated_at)
        values ('todo_a', 'task_old', 'brd', 'Order new bollards', 1, 0, 'api', ${NOW}, ${NOW})`.execute(db);
      expect(await find(db, dialect, 'gantry')).toEqual([]);
      expect(await find(db, dialect, 'bollards')).toEqual([]);
      expect(await find(db, dialect, 'gantry', true)).toEqual(['turn:task_old']);
      await sql`update tasks set archived = 0 where id = 'task_old'`.execute(db);
      expect(await find(db, dialect, 'gantry')).toEqual(['turn:task_old']);
      expect(await find(db, dialect, 'bollards')).toEqual(['todo:task_old']);
      expect(await find(db, dialect, 'crane')).toEqual(['task:task_old']);
      await sql`update tasks set archived = 1 where id = 'task_new'`.execute(db);
      expect(await find(db, dialect, 'tug')).toEqual([]);
      expect((await find(db, dialect, 'foghorn')).sort()).toEqual(['comment:task_old']);

      // The other triggers still follow edits and deletes.
      await sql`update tasks set title = 'Harbour barge' where id = 'task_old'`.execute(db);
      expect(await find(db, dialect, 'crane')).toEqual([]);
      expect(await find(db, dialect, 'barge')).toEqual(['task:task_old']);
      await sql`delete from turns where id = 'turn_a'`.execute(db);
      expect(await find(db, dialect, 'gantry', true)).toEqual([]);
      if (dialect === 'postgres') {
        const { rows } = await sql<{ options: string[] | null }>`
          select reloptions as options from pg_class
          where oid = to_regclass('search_docs')`.execute(db);
        expect(rows[0]?.options).toContain('parallel_workers=0');
      }
      if (dialect === 'sqlite') {
        // FTS5's index still matches the texts the view reads.
        await sql`insert into search_fts (search_fts, rank) values ('integrity-check', 1)`.execute(db);
      }
    });
  });
});
