import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../schema.js';

// Migrations take `Kysely<unknown>`: they must not depend on today's table types.
export function initialMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('key_sealed', 'text', (c) => c.notNull())
        .addColumn('all_boards', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .execute();

      await db.schema
        .createTable('boards')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('boards_created_idx').on('boards').columns(['created_at', 'id']).execute();

      await db.schema
        .createTable('api_key_grants')
        .addColumn('api_key_id', 'text', (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
        .addColumn('board_id', 'text', (c) => c.notNull().references('boards.id').onDelete('cascade'))
        .addColumn('permission', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('api_key_grants_pk', ['api_key_id', 'board_id'])
        .execute();
      await db.schema
        .createIndex('api_key_grants_board_idx')
        .on('api_key_grants')
        .column('board_id')
        .execute();

      await db.schema
        .createTable('lanes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('board_id', 'text', (c) => c.notNull().references('boards.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('lanes_board_position_idx')
        .on('lanes')
        .columns(['board_id', 'position'])
        .execute();

      await db.schema
        .createTable('tasks')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('board_id', 'text', (c) => c.notNull().references('boards.id').onDelete('cascade'))
        .addColumn('lane_id', 'text', (c) => c.notNull().references('lanes.id').onDelete('cascade'))
        // Binary ("C") collation on PostgreSQL so prefix range scans use the index whatever the locale.
        .addColumn('short_id', 'text', (c) => {
          const column = c.notNull().unique();
          return dialect === 'postgres' ? column.modifyFront(sql`collate "C"`) : column;
        })
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('archived', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('position', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('last_turn_at', 'text')
        .execute();
      await db.schema
        .createIndex('tasks_lane_position_idx')
        .on('tasks')
        .columns(['lane_id', 'position'])
        .execute();
      await db.schema.createIndex('tasks_board_idx').on('tasks').columns(['board_id', 'lane_id']).execute();

      await db.schema
        .createTable('comments')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('task_id', 'text', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
        .addColumn('board_id', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('author_name', 'text', (c) => c.notNull())
        .addColumn('author_source', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('comments_task_idx')
        .on('comments')
        .columns(['task_id', 'created_at'])
        .execute();

      await db.schema
        .createTable('todos')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('task_id', 'text', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
        .addColumn('board_id', 'text', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('iteration', 'integer', (c) => c.notNull())
        .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('sort_order', 'integer', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('todos_task_order_idx')
        .on('todos')
        .columns(['task_id', 'iteration', 'sort_order'])
        .execute();

      await db.schema
        .createTable('turns')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('task_id', 'text', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
        .addColumn('board_id', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('source_id', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('tool_use_only', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('captured_at', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('turns_task_source_uq', ['task_id', 'source', 'source_id'])
        .execute();
      await db.schema
        .createIndex('turns_task_captured_idx')
        .on('turns')
        .columns(['task_id', 'captured_at', 'id'])
        .execute();

      await db.schema
        .createTable('webhooks')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('api_key_id', 'text', (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('events', 'text', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('secret_sealed', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webhooks_key_idx').on('webhooks').column('api_key_id').execute();

      await db.schema
        .createTable('webhook_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('board_id', 'text')
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
        .addColumn('event_id', 'text', (c) => c.notNull().references('webhook_events.id').onDelete('cascade'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
        .addColumn('lease_until', 'bigint')
        .addColumn('lease_owner', 'text')
        .addColumn('response_status', 'integer')
        .addColumn('response_body', 'text')
        .addColumn('duration_ms', 'integer')
        .addColumn('error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_attempt_at', 'text')
        .execute();
      await db.schema
        .createIndex('deliveries_due_idx')
        .on('webhook_deliveries')
        .columns(['status', 'next_attempt_at'])
        .execute();
      await db.schema
        .createIndex('deliveries_webhook_idx')
        .on('webhook_deliveries')
        .columns(['webhook_id', 'created_at'])
        .execute();
      await db.schema
        .createIndex('deliveries_event_idx')
        .on('webhook_deliveries')
        .column('event_id')
        .execute();
    },
  };
}
