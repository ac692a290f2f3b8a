import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../schema.js';
import { SEARCH_SOURCES, type SearchSource } from './017-search-index.js';

/*
 * Full-text search at size (issue 29): `search_docs` keeps whether the text's task is archived, so a
 * search filters its candidates on the row it already reads for the board and kind, with no read of
 * the task (a task row, description included, for each of up to 1 000 candidates was a third of a
 * query's time). The triggers that write `search_docs` set it in the transaction of the write: a task's
 * own row from the task, a comment's, todo's or turn's from its task when it is written, and archiving
 * or unarchiving a task sets it on all its task's rows (by `search_docs_task_idx`).
 *
 * SQLite: the insert triggers of migration 017 are made again with the column. (Merging FTS5's segments
 * with 'optimize' took 37 s at a million texts and made no measurable difference to queries: not done.)
 * PostgreSQL: the trigger functions are replaced (same triggers), and `search_docs` is never read by a
 * parallel plan: for a word in most texts the planner chose a parallel sequential scan to find 1 000
 * matches that one process finds in a few milliseconds, and starting the workers cost 100-400 ms on a
 * loaded machine (and the old query, joining tasks, chose one for most one-word queries).
 */
export function searchSpeedMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await sql`alter table search_docs add column archived integer not null default 0`.execute(db);
      await sql`update search_docs set archived = 1
        where task_id in (select id from tasks where archived <> 0)`.execute(db);
      if (dialect === 'postgres') await postgresChanges(db);
      else await sqliteTriggers(db);
    },
  };
}

/** The archived flag of a new row: a task's own, else its task's (SQL over the trigger's `new`). */
function archivedOf(s: SearchSource): string {
  return s.taskIdColumn === 'id'
    ? 'new.archived'
    : 'coalesce((select archived from tasks where id = new.task_id), 0)';
}

/**
 * SQLite's insert trigger of a searchable table (the update and delete triggers of migration 017 are
 * unchanged). Exported for migrations that rebuild a source table and must make its triggers again.
 */
export function sqliteSearchInsertTrigger(s: SearchSource): string {
  const values = `${s.sqlite.title('new')}, ${s.sqlite.tags('new')}, ${s.sqlite.body('new')}`;
  return `create trigger ${s.table}_search_insert after insert on ${s.table} begin
    insert into search_docs (ref_id, kind, task_id, board_id, archived)
      values (new.id, '${s.kind}', ${s.taskIdColumn === 'id' ? 'new.id' : 'new.task_id'}, new.board_id, ${archivedOf(s)});
    insert into search_fts (rowid, title, tags, body)
      values ((select id from search_docs where ref_id = new.id), ${values});
  end`;
}

/** Archiving or unarchiving a task marks every text of the task (also for a rebuild of `tasks`). */
export const SQLITE_ARCHIVE_TRIGGER = `create trigger tasks_search_archive after update of archived on tasks
  when old.archived is not new.archived begin
    update search_docs set archived = new.archived where task_id = new.id;
  end`;

async function sqliteTriggers(db: Kysely<unknown>): Promise<void> {
  for (const s of SEARCH_SOURCES) {
    await sql.raw(`drop trigger ${s.table}_search_insert`).execute(db);
    await sql.raw(sqliteSearchInsertTrigger(s)).execute(db);
  }
  await sql.raw(SQLITE_ARCHIVE_TRIGGER).execute(db);
}

async function postgresChanges(db: Kysely<unknown>): Promise<void> {
  await sql`alter table search_docs set (parallel_workers = 0)`.execute(db);
  for (const s of SEARCH_SOURCES) {
    const taskId = s.taskIdColumn === 'id' ? 'new.id' : 'new.task_id';
    await sql
      .raw(
        `create or replace function laneboard_${s.table}_search() returns trigger language plpgsql as $$
         begin
           if tg_op = 'DELETE' then
             delete from search_docs where ref_id = old.id;
             return old;
           end if;
           insert into search_docs (ref_id, kind, task_id, board_id, archived, document)
             values (new.id, '${s.kind}', ${taskId}, new.board_id, ${archivedOf(s)}, ${s.postgresDocument('new')})
             on conflict (ref_id) do update set document = excluded.document;
           return new;
         end $$`,
      )
      .execute(db);
  }
  await sql`create function laneboard_tasks_search_archive() returns trigger language plpgsql as $$
    begin
      update search_docs set archived = new.archived where task_id = new.id;
      return new;
    end $$`.execute(db);
  await sql`create trigger tasks_search_archive after update of archived on tasks
    for each row when (old.archived is distinct from new.archived)
    execute function laneboard_tasks_search_archive()`.execute(db);
}
