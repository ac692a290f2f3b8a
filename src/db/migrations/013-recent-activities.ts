import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../schema.js';

/*
 * On SQLite every commit writes each b-tree page it changed as a WAL frame. An activity row changed
 * three: the table's last leaf and the last leaves of its (board_id, id) and (task_id, id) indexes,
 * about 40 µs of a task create's 350 (issue 9 allows 10 %). New activities now go to
 * `recent_activities`, a table without secondary indexes (one page per commit), and are moved into
 * `activities` in batches (repositories/recent-activities.ts), where the indexes are written once per
 * batch. Readers use the view `all_activities`, the two tables as one: SQLite merges the two id-ordered
 * searches (MERGE (UNION ALL)), and the recent table holds at most one batch.
 *
 * Ids are taken as one more than the largest in either table, or `activity_id_floor.floor`: a database
 * whose activities an older version's retention removed entirely kept AUTOINCREMENT (migration 010),
 * and its ids must not be handed out again.
 *
 * PostgreSQL writes activities as before (in the COMMIT message, no page frames); its view is the table.
 */
export function recentActivitiesMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect === 'postgres') {
        await sql`create view all_activities as select * from activities`.execute(db);
        return;
      }
      await sql`create table recent_activities (
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
      const sequences = await sql<{ name: string }>`
        select name from sqlite_master where type = 'table' and name = 'sqlite_sequence'`.execute(db);
      const seq =
        sequences.rows.length > 0
          ? await sql<{ seq: number | null }>`
              select seq from sqlite_sequence where name = 'activities'`.execute(db)
          : { rows: [] };
      const max = await sql<{ max: number | null }>`select max(id) as max from activities`.execute(db);
      const floor = Math.max(seq.rows[0]?.seq ?? 0, max.rows[0]?.max ?? 0);
      await sql`create table activity_id_floor (floor integer not null)`.execute(db);
      await sql`insert into activity_id_floor (floor) values (${floor})`.execute(db);
      await sql`create view all_activities as
        select id, board_id, task_id, type, actor_kind, actor_id, actor_name, origin, data, created_at
          from activities
        union all
        select id, board_id, task_id, type, actor_kind, actor_id, actor_name, origin, data, created_at
          from recent_activities`.execute(db);
    },
  };
}
