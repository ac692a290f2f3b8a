import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../schema.js';

/*
 * On SQLite, AUTOINCREMENT makes every insert also update `sqlite_sequence`: one more page written per
 * change (the activity-cost benchmark measured it at about half of what recording an activity adds to a
 * task create). A plain INTEGER PRIMARY KEY takes max(id) + 1, which only moves backwards when the
 * newest rows are deleted; retention never deletes the newest activity (repositories/activities.ts), so
 * ids keep increasing and a live stream's Last-Event-ID stays meaningful.
 *
 * The table is rebuilt without AUTOINCREMENT, keeping every row and id. A database whose activities
 * were all removed by an older version's retention keeps AUTOINCREMENT: rebuilt empty, it would hand
 * out ids that were already used. PostgreSQL's bigserial is a sequence and needs nothing.
 */
export function activityRowidsMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect === 'postgres') return;
      const used = await sql<{ seq: number | null; max: number | null }>`
        select (select seq from sqlite_sequence where name = 'activities') as seq,
               (select max(id) from activities) as max`.execute(db);
      const { seq, max } = used.rows[0] ?? { seq: null, max: null };
      if (seq !== null && seq > 0 && (max === null || max < seq)) return;
      await sql`create table activities_rebuilt (
        id integer primary key,
        board_id text not null,
        task_id text,
        type text not null,
        actor_kind text not null,
        actor_id text,
        actor_name text not null,
        origin text not null,
        data text not null,
        created_at text not null
      )`.execute(db);
      await sql`insert into activities_rebuilt
        (id, board_id, task_id, type, actor_kind, actor_id, actor_name, origin, data, created_at)
        select id, board_id, task_id, type, actor_kind, actor_id, actor_name, origin, data, created_at
        from activities`.execute(db);
      await sql`drop table activities`.execute(db);
      await sql`alter table activities_rebuilt rename to activities`.execute(db);
      await db.schema
        .createIndex('activities_board_idx')
        .on('activities')
        .columns(['board_id', 'id'])
        .execute();
      await db.schema
        .createIndex('activities_task_idx')
        .on('activities')
        .columns(['task_id', 'id'])
        .execute();
    },
  };
}
