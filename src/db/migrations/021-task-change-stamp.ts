import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../schema.js';

/*
 * SQLite: the serving connection keeps each lane's task positions (repositories/task-positions.ts) and
 * forgot them all whenever `PRAGMA data_version` moved, that is on every commit of another connection.
 * The webhook dispatcher's thread commits every few milliseconds while it delivers, so under a steady
 * load of creates with a webhook every create read its whole lane again (thousands of rows). A counter
 * moved by triggers on the writes that can shift a lane's positions (insert, delete, a change of lane,
 * archived or rank), from any connection, changes only when the positions may have. A migration that
 * rebuilds `tasks` must make these triggers again (a test writes tasks and expects the counter to move).
 *
 * PostgreSQL counts positions in its queries and caches none: nothing to do there.
 */
export function taskChangeStampMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect === 'postgres') return;
      await sql`create table task_change_stamp (
        id integer primary key check (id = 1),
        n integer not null
      )`.execute(db);
      await sql`insert into task_change_stamp (id, n) values (1, 0)`.execute(db);
      for (const trigger of TASK_CHANGE_TRIGGERS) await sql.raw(trigger).execute(db);
    },
  };
}

/** The triggers that move the counter (also for migrations that rebuild `tasks`). */
export const TASK_CHANGE_TRIGGERS = [
  `create trigger tasks_insert_change_stamp after insert on tasks
   begin update task_change_stamp set n = n + 1; end`,
  `create trigger tasks_delete_change_stamp after delete on tasks
   begin update task_change_stamp set n = n + 1; end`,
  `create trigger tasks_update_change_stamp after update of lane_id, archived, rank on tasks
   begin update task_change_stamp set n = n + 1; end`,
] as const;
