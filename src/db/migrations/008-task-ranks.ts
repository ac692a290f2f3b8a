import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../schema.js';

/** The PostgreSQL sequence appends draw their rank from (see docs/decisions.md, "Task ranks"). */
export const TASK_RANK_SEQUENCE = 'tasks_rank_seq';

/*
 * Tasks are ordered by a sortable `rank` instead of a stored dense `position`. A dense position can only
 * be kept by serialising every append to a lane (max(position) + 1 under the lane's row lock, held to
 * commit); a rank drawn from a sequence needs no lock, and the dense position is computed when reading.
 * Existing tasks keep their order: rank = position (archived tasks have no place, so any rank will do:
 * unarchiving draws a new one). On PostgreSQL the sequence starts above every existing rank, so an
 * append is always last.
 */
export function taskRanksMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const type = dialect === 'postgres' ? 'double precision' : 'real';
      await sql.raw(`alter table tasks add column rank ${type} not null default 0`).execute(db);
      await sql`update tasks set rank = coalesce(position, 0)`.execute(db);
      await db.schema.dropIndex('tasks_lane_position_idx').execute();
      await db.schema.alterTable('tasks').dropColumn('position').execute();
      // Positions are counted through this index: the lane's active tasks before a task are one range.
      await db.schema
        .createIndex('tasks_lane_rank_idx')
        .on('tasks')
        .columns(['lane_id', 'archived', 'rank', 'id'])
        .execute();
      if (dialect !== 'postgres') return;
      await sql.raw(`alter table tasks alter column rank drop default`).execute(db);
      await sql.raw(`create sequence ${TASK_RANK_SEQUENCE} as bigint`).execute(db);
      await sql
        .raw(
          `select setval('${TASK_RANK_SEQUENCE}', (select coalesce(max(rank)::bigint, 0) + 1 from tasks), false)`,
        )
        .execute(db);
    },
  };
}
