import type { Kysely } from 'kysely';
import type { Dialect } from '../schema.js';

/**
 * One row per committed change, whoever made it. No foreign key to boards: a board's `board.deleted`
 * activity outlives the board (retention removes it like any other).
 */
export function activitiesMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('activities')
        .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', (c) =>
          dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('board_id', 'text', (c) => c.notNull())
        .addColumn('task_id', 'text')
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('actor_kind', 'text', (c) => c.notNull())
        .addColumn('actor_id', 'text')
        .addColumn('actor_name', 'text', (c) => c.notNull())
        .addColumn('origin', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
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
      await db.schema.createIndex('activities_created_idx').on('activities').column('created_at').execute();
    },
  };
}
