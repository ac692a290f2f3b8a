import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import { searchDocs } from '../../src/db/repositories/search.js';
import { describeEachDialect } from '../support/dialects.js';
import { atMigration, insertBoardWithLane } from './migration-fixtures.js';

const NOW = '2026-11-23T10:00:00.000Z';

describeEachDialect('migration 017-search-index', (dialect) => {
  it('indexes the tasks, comments, todos and turns already stored', async () => {
    await atMigration(dialect, '015-agents-assignees', async (database) => {
      const db = database.kysely;
      await insertBoardWithLane(db, NOW);
      await sql`insert into tasks (id, board_id, lane_id, short_id, title, description, tags, rank, created_at, updated_at)
        values ('task_a', 'brd', 'lane', 'aaaa', 'Harbour crane', 'Grease the winch', '["dockside"]', 1, ${NOW}, ${NOW})`.execute(
        db,
      );
      await sql`insert into comments (id, task_id, board_id, body, author_name, author_source, created_at)
        values ('cmt_a', 'task_a', 'brd', 'The foghorn is loud', 'Ann', 'api', ${NOW})`.execute(db);
      await sql`insert into todos (id, task_id, board_id, text, iteration, sort_order, source, created_at, updated_at)
        values ('todo_a', 'task_a', 'brd', 'Order new bollards', 1, 0, 'api', ${NOW}, ${NOW})`.execute(db);
      await sql`insert into turns (id, task_id, board_id, source, source_id, role, content, captured_at, created_at)
        values ('turn_a', 'task_a', 'brd', 'claude', 'm1', 'assistant', 'Check the gantry rails', ${NOW}, ${NOW})`.execute(
        db,
      );

      expect(await migrateToLatest(database)).toContain('017-search-index');

      const find = async (word: string) =>
        searchDocs(db, dialect, {
          terms: [{ tokens: [word], excluded: false, prefix: false }],
          boardIds: null,
          kinds: null,
          memberId: null,
          includeArchived: false,
          limit: 10,
          offset: 0,
        });
      for (const [word, kind] of [
        ['crane', 'task'],
        ['winch', 'task'],
        ['dockside', 'task'],
        ['foghorn', 'comment'],
        ['bollards', 'todo'],
        ['gantry', 'turn'],
      ] as const) {
        const hits = await find(word);
        expect(
          hits.map((h) => [h.kind, h.taskId, h.shortId, h.title]),
          word,
        ).toEqual([[kind, 'task_a', 'aaaa', 'Harbour crane']]);
        expect(hits[0]?.texts.join(' ').toLowerCase(), word).toContain(word);
      }

      // The triggers work on the migrated rows: a deleted comment leaves the index.
      await sql`delete from comments where id = 'cmt_a'`.execute(db);
      expect(await find('foghorn')).toEqual([]);
      await sql`update tasks set title = 'Harbour tug', tags = '[]' where id = 'task_a'`.execute(db);
      expect(await find('crane')).toEqual([]);
      expect(await find('dockside')).toEqual([]);
      expect((await find('tug')).map((h) => h.taskId)).toEqual(['task_a']);
      if (dialect === 'sqlite') {
        // FTS5 compares its index with the text the view reads: the triggers kept them in step.
        await sql`insert into search_fts (search_fts, rank) values ('integrity-check', 1)`.execute(db);
      }
    });
  });
});
