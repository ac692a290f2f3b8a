import type { Kysely } from 'kysely';

/**
 * Every change writes an activity row, in its own transaction: each index on `activities` is one more
 * page written per commit. Retention no longer needs `activities_created_idx`: ids increase with
 * creation time, so it deletes from the oldest ids (the primary key) while they are old enough
 * (db/repositories/activities.ts). Reads by board and by task keep their (board_id, id) and
 * (task_id, id) indexes.
 */
export const activityInsertCostMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropIndex('activities_created_idx').execute();
  },
};
