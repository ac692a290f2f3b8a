import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../schema.js';

/*
 * Full-text search (issue 29) over task titles, tags and descriptions, comments, todos and turns.
 *
 * Both databases keep one row per searchable text in `search_docs` (its kind, the text's id, its task
 * and board), written by triggers on the four source tables, so the index changes in the transaction
 * that changes the text, whichever code path writes it (cascading deletes included). The source tables
 * themselves gain no column: their rows are read with `select *` in places, and a tsvector there would
 * travel with every task read.
 *
 * SQLite: an FTS5 table over the view `search_content`, which reads the text from the source rows by
 * `search_docs.id` ("external content"), so the text is not stored twice; the triggers hand FTS5 the old
 * values on a change ('delete' command), exactly as they were indexed.
 * PostgreSQL: `search_docs.document`, a weighted tsvector (title A, tags B, other text C) with a GIN
 * index. Both use no stemming and no stop words ('simple', 'unicode61'), so the two behave alike.
 */
/** Where searchable text lives, and how each database indexes it (the repository's snippets read this). */
export interface SearchSource {
  kind: 'task' | 'comment' | 'todo' | 'turn';
  table: 'tasks' | 'comments' | 'todos' | 'turns';
  alias: string;
  /** The column holding the task's id (a task is its own task). */
  taskIdColumn: 'id' | 'task_id';
  /** A change to any of these re-indexes the row. */
  textColumns: string[];
  /** SQLite: the text of FTS5's three columns, as expressions over a row (`new`, `old` or an alias). */
  sqlite: { title: (row: string) => string; tags: (row: string) => string; body: (row: string) => string };
  /** PostgreSQL: the row's tsvector. */
  postgresDocument: (row: string) => string;
  /** PostgreSQL: the texts a snippet is cut from (SQL expressions; null where the kind has none). */
  postgresTexts: (row: string) => { title: string; tags: string; body: string };
}

/** Turns can hold 1 MiB; their first 100 000 characters are indexed (a description's limit). */
const TURN_INDEXED_CHARS = 100_000;

/**
 * Tags are a JSON array of strings; FTS5 indexes (and snippets show) them as words separated by spaces.
 * String functions, not json_each: a table-valued function cannot be used in a trigger.
 */
const sqliteTags = (tags: string) =>
  `replace(replace(replace(replace(${tags}, '","', ' '), '["', ''), '"]', ''), '[]', '')`;
const postgresTags = (tags: string) =>
  `array_to_string(array(select jsonb_array_elements_text(${tags}::jsonb)), ' ')`;
const vector = (text: string, weight: 'A' | 'B' | 'C') =>
  `setweight(to_tsvector('simple'::regconfig, ${text}), '${weight}')`;

const bodyOnly = (
  kind: 'comment' | 'todo' | 'turn',
  table: 'comments' | 'todos' | 'turns',
  alias: string,
  column: string,
  limit?: number,
): SearchSource => {
  const text = (row: string) =>
    limit === undefined ? `${row}.${column}` : `substr(${row}.${column}, 1, ${limit})`;
  return {
    kind,
    table,
    alias,
    taskIdColumn: 'task_id',
    textColumns: [column],
    sqlite: { title: () => "''", tags: () => "''", body: text },
    postgresDocument: (row) => vector(text(row), 'C'),
    postgresTexts: (row) => ({ title: 'null', tags: 'null', body: text(row) }),
  };
};

export const SEARCH_SOURCES: readonly SearchSource[] = [
  {
    kind: 'task',
    table: 'tasks',
    alias: 't',
    taskIdColumn: 'id',
    textColumns: ['title', 'description', 'tags'],
    sqlite: {
      title: (row) => `${row}.title`,
      tags: (row) => sqliteTags(`${row}.tags`),
      body: (row) => `${row}.description`,
    },
    postgresDocument: (row) =>
      `${vector(`${row}.title`, 'A')} || ${vector(`${row}.tags`, 'B')} || ${vector(`${row}.description`, 'C')}`,
    postgresTexts: (row) => ({
      title: `${row}.title`,
      tags: postgresTags(`${row}.tags`),
      body: `${row}.description`,
    }),
  },
  bodyOnly('comment', 'comments', 'c', 'body'),
  bodyOnly('todo', 'todos', 'o', 'text'),
  bodyOnly('turn', 'turns', 'u', 'content', TURN_INDEXED_CHARS),
];

export function searchIndexMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect === 'postgres') await createPostgresIndex(db);
      else await createSqliteIndex(db);
    },
  };
}

function changedWhen(source: SearchSource): string {
  return source.textColumns.map((c) => `old.${c} is not new.${c}`).join(' or ');
}

async function createSqliteIndex(db: Kysely<unknown>): Promise<void> {
  await sql`create table search_docs (
    id integer primary key,
    ref_id text not null unique,
    kind text not null,
    task_id text not null,
    board_id text not null
  )`.execute(db);
  // The page of results joins by task; the board filter reads this column after the match.
  await sql`create index search_docs_task_idx on search_docs (task_id)`.execute(db);

  const joins = SEARCH_SOURCES.map(
    (s) => `left join ${s.table} ${s.alias} on d.kind = '${s.kind}' and ${s.alias}.id = d.ref_id`,
  ).join('\n');
  const column = (pick: (s: SearchSource) => string) =>
    `case d.kind ${SEARCH_SOURCES.map((s) => `when '${s.kind}' then ${pick(s)}`).join(' ')} end`;
  await sql
    .raw(
      `create view search_content as select d.id as id,
         ${column((s) => s.sqlite.title(s.alias))} as title,
         ${column((s) => s.sqlite.tags(s.alias))} as tags,
         ${column((s) => s.sqlite.body(s.alias))} as body
       from search_docs d ${joins}`,
    )
    .execute(db);
  await sql`create virtual table search_fts using fts5(
    title, tags, body,
    content = 'search_content', content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2'
  )`.execute(db);

  for (const s of SEARCH_SOURCES) {
    const docId = (row: 'new' | 'old') => `(select id from search_docs where ref_id = ${row}.id)`;
    const values = (row: 'new' | 'old') =>
      `${s.sqlite.title(row)}, ${s.sqlite.tags(row)}, ${s.sqlite.body(row)}`;
    const add = `insert into search_fts (rowid, title, tags, body) values (${docId('new')}, ${values('new')});`;
    const remove = `insert into search_fts (search_fts, rowid, title, tags, body)
      values ('delete', ${docId('old')}, ${values('old')});`;
    await sql
      .raw(
        `create trigger ${s.table}_search_insert after insert on ${s.table} begin
           insert into search_docs (ref_id, kind, task_id, board_id)
             values (new.id, '${s.kind}', ${s.taskIdColumn === 'id' ? 'new.id' : 'new.task_id'}, new.board_id);
           ${add}
         end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger ${s.table}_search_update after update of ${s.textColumns.join(', ')} on ${s.table}
         when ${changedWhen(s)} begin ${remove} ${add} end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger ${s.table}_search_delete after delete on ${s.table} begin
           ${remove}
           delete from search_docs where ref_id = old.id;
         end`,
      )
      .execute(db);
  }

  // Existing data: one doc per row, then FTS5 reads every text through the view once.
  for (const s of SEARCH_SOURCES) {
    await sql
      .raw(
        `insert into search_docs (ref_id, kind, task_id, board_id)
         select id, '${s.kind}', ${s.taskIdColumn}, board_id from ${s.table} order by rowid`,
      )
      .execute(db);
  }
  await sql`insert into search_fts (search_fts) values ('rebuild')`.execute(db);
}

async function createPostgresIndex(db: Kysely<unknown>): Promise<void> {
  await sql`create table search_docs (
    ref_id text primary key,
    kind text not null,
    task_id text not null,
    board_id text not null,
    document tsvector not null
  )`.execute(db);

  for (const s of SEARCH_SOURCES) {
    const fn = `laneboard_${s.table}_search`;
    const taskId = s.taskIdColumn === 'id' ? 'new.id' : 'new.task_id';
    await sql
      .raw(
        `create function ${fn}() returns trigger language plpgsql as $$
         begin
           if tg_op = 'DELETE' then
             delete from search_docs where ref_id = old.id;
             return old;
           end if;
           insert into search_docs (ref_id, kind, task_id, board_id, document)
             values (new.id, '${s.kind}', ${taskId}, new.board_id, ${s.postgresDocument('new')})
             on conflict (ref_id) do update set document = excluded.document;
           return new;
         end $$`,
      )
      .execute(db);
    const distinct = s.textColumns.map((c) => `old.${c} is distinct from new.${c}`).join(' or ');
    await sql
      .raw(
        `create trigger ${s.table}_search_insert after insert on ${s.table}
         for each row execute function ${fn}()`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger ${s.table}_search_update after update of ${s.textColumns.join(', ')} on ${s.table}
         for each row when (${distinct}) execute function ${fn}()`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger ${s.table}_search_delete after delete on ${s.table}
         for each row execute function ${fn}()`,
      )
      .execute(db);
    // Existing data.
    await sql
      .raw(
        `insert into search_docs (ref_id, kind, task_id, board_id, document)
         select id, '${s.kind}', ${s.taskIdColumn}, board_id, ${s.postgresDocument(s.table)} from ${s.table}`,
      )
      .execute(db);
  }
  await sql`create index search_docs_document_idx on search_docs using gin (document)`.execute(db);
  await sql`create index search_docs_task_idx on search_docs (task_id)`.execute(db);
}
