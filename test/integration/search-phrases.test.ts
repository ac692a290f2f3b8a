import { CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import { searchDocs } from '../../src/db/repositories/search.js';
import type { DB, Dialect, Executor } from '../../src/db/schema.js';
import { parseSearchQuery } from '../../src/domain/search/search-query.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { describeEachDialect } from '../support/dialects.js';

/*
 * Phrases (migration 023): on PostgreSQL a phrase is found through the index of adjacent word pairs,
 * which must find exactly what comparing positions finds, also for texts written before the migration.
 */
const NOW = '2026-11-27T10:00:00.000Z';

const find = (db: Executor, dialect: Dialect, q: string) =>
  searchDocs(db, dialect, {
    terms: parseSearchQuery(q),
    boardIds: null,
    kinds: null,
    memberId: null,
    includeArchived: false,
    limit: 50,
    offset: 0,
  }).then((hits) => hits.map((h) => h.refId).sort());

async function insertTask(db: Executor, id: string, title: string, description: string): Promise<void> {
  await sql`insert into tasks (id, board_id, lane_id, short_id, title, description, rank, created_at, updated_at)
    values (${id}, 'brd', 'lane', ${id}, ${title}, ${description}, 1, ${NOW}, ${NOW})`.execute(db);
}

async function insertComment(db: Executor, id: string, body: string): Promise<void> {
  await sql`insert into comments (id, task_id, board_id, body, author_name, author_source, created_at)
    values (${id}, 'task_a', 'brd', ${body}, 'Ann', 'api', ${NOW})`.execute(db);
}

describeEachDialect('search: phrases', (dialect) => {
  let t: TestDatabase;
  let db: Executor;
  beforeAll(async () => {
    t = await createTestDatabase(dialect, { migrate: false });
    await migrateToLatest(t.database, '022-notification-retention');
    db = t.database.kysely;
    await sql`insert into boards (id, name, created_at, updated_at) values ('brd', 'B', ${NOW}, ${NOW})`.execute(
      db,
    );
    await sql`insert into lanes (id, board_id, name, position, created_at, updated_at)
      values ('lane', 'brd', 'L', 0, ${NOW}, ${NOW})`.execute(db);
    // Written before the migration: its index must cover them.
    await insertTask(db, 'task_a', 'Staging server', 'Deploy the staging server after the release notes');
    await insertComment(db, 'cmt_old', 'The server staging area is full');
    expect(await migrateToLatest(t.database)).toContain('023-search-phrases');
    // Written after it: the index follows inserts and edits.
    await insertComment(db, 'cmt_new', 'Very very slow Crème Brûlée build on the staging server again');
    await insertComment(db, 'cmt_edit', 'release train');
    await sql`update comments set body = 'release notes for the train' where id = 'cmt_edit'`.execute(db);
  });
  afterAll(() => t.drop());

  it('finds a phrase in order and adjacent only, in texts written before and after the migration', async () => {
    expect(await find(db, dialect, '"staging server"')).toEqual(['cmt_new', 'task_a']);
    expect(await find(db, dialect, '"server staging"')).toEqual(['cmt_old']);
    expect(await find(db, dialect, '"deploy server"')).toEqual([]);
    expect(await find(db, dialect, '"staging area is full"')).toEqual(['cmt_old']);
    expect(await find(db, dialect, '"staging area full"')).toEqual([]);
  });

  it('follows edits, and matches repeated words, capitals and accents as the words do', async () => {
    expect(await find(db, dialect, '"release notes"')).toEqual(['cmt_edit', 'task_a']);
    expect(await find(db, dialect, '"release train"')).toEqual([]);
    expect(await find(db, dialect, '"very very slow"')).toEqual(['cmt_new']);
    expect(await find(db, dialect, '"very slow very"')).toEqual([]);
    expect(await find(db, dialect, '"CRÈME brûlée"')).toEqual(['cmt_new']);
  });

  it('combines a phrase with words, a prefix and exclusions', async () => {
    // The last word of a hyphenated term is a prefix, as a plain last word is.
    expect(await find(db, dialect, 'deploy staging-serv')).toEqual(['task_a']);
    expect(await find(db, dialect, 'staging-serv')).toEqual(['cmt_new', 'task_a']);
    expect(await find(db, dialect, '"staging server" -brûlée')).toEqual(['task_a']);
    expect(await find(db, dialect, '"staging server" "release notes"')).toEqual(['task_a']);
    expect(await find(db, dialect, 'staging -"staging server"')).toEqual(['cmt_old']);
  });

  if (dialect === 'postgres') {
    it('finds a phrase of common words through the index of pairs, never by a scan', async () => {
      for (let i = 0; i < 2000; i++) await insertComment(db, `cmt_bulk_${i}`, `the build of the server ${i}`);
      await sql`analyze search_docs`.execute(db);
      const statements: { sql: string; parameters: readonly unknown[] }[] = [];
      const logged = new Kysely<DB>({
        dialect: new PostgresDialect({
          pool: new pg.Pool({ connectionString: t.databaseUrl as string, max: 1 }),
        }),
        log: (event) => {
          if (event.query.sql.includes('laneboard_search_bigrams')) statements.push(event.query);
        },
      });
      try {
        expect(await find(logged, dialect, '"staging server"')).toEqual(['cmt_new', 'task_a']);
        const [query] = statements;
        if (query === undefined) throw new Error('no query read the index of pairs');
        const { rows } = await logged.executeQuery<{ 'QUERY PLAN': string }>(
          CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]),
        );
        const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
        expect(plan).toMatch(/Bitmap Index Scan on search_docs_bigram_idx/);
        expect(plan).not.toMatch(/Seq Scan on search_docs/);
      } finally {
        await logged.destroy();
      }
    });
  }
});
