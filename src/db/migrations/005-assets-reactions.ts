import type { Kysely } from 'kysely';
import type { Dialect } from '../schema.js';

/**
 * Assets (files on tasks) with their bytes in the database, so every instance serves them and a backup
 * holds them; and reactions on comments. The bytes live in fixed-size chunks (256 KiB) so that reading
 * or writing one never needs the whole file in one value. Foreign-key cascades remove a task's assets
 * (and a comment's reactions) with it, and so with its lane or board.
 */
export function assetsReactionsMigration(dialect: Dialect) {
  const bytes = dialect === 'postgres' ? 'bytea' : 'blob';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('assets')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('task_id', 'text', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
        .addColumn('board_id', 'text', (c) => c.notNull())
        .addColumn('filename', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('assets_task_created_idx')
        .on('assets')
        .columns(['task_id', 'created_at', 'id'])
        .execute();

      await db.schema
        .createTable('asset_chunks')
        .addColumn('asset_id', 'text', (c) => c.notNull().references('assets.id').onDelete('cascade'))
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('data', bytes, (c) => c.notNull())
        .addPrimaryKeyConstraint('asset_chunks_pk', ['asset_id', 'seq'])
        .execute();

      await db.schema
        .createTable('reactions')
        .addColumn('comment_id', 'text', (c) => c.notNull().references('comments.id').onDelete('cascade'))
        .addColumn('task_id', 'text', (c) => c.notNull())
        .addColumn('board_id', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        // Who reacted: `api_key`, `agent`, `user` or `system`, and that actor's id.
        .addColumn('actor_kind', 'text', (c) => c.notNull())
        .addColumn('actor_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('reactions_pk', ['comment_id', 'content', 'actor_kind', 'actor_id'])
        .execute();
      // Counting a task's reactions for its comment list.
      await db.schema.createIndex('reactions_task_idx').on('reactions').column('task_id').execute();
    },
  };
}
