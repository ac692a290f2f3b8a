import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../schema.js';

/*
 * Agents as members (issue 26): agents, the agent a key belongs to, task assignees, and the task's
 * assignee count that claiming guards with a conditional update (no task is handed to two callers).
 *
 * The key-lookup cache holds the agent's name and the owning person's name with a key's actor, so a
 * change to either must move the key-change stamp: on SQLite the counter of migration 014 (triggers on
 * agents, and on users when their name changes), on PostgreSQL the NOTIFY of migration 007.
 */
export function agentsAssigneesMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('agents')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .alterTable('api_keys')
        .addColumn('agent_id', 'text', (c) => c.references('agents.id'))
        .execute();
      await db.schema.createIndex('api_keys_agent_idx').on('api_keys').column('agent_id').execute();

      await db.schema
        .alterTable('tasks')
        .addColumn('assignee_count', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('task_assignees')
        .addColumn('task_id', 'text', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
        .addColumn('board_id', 'text', (c) => c.notNull())
        // `usr_...` or `agt_...`; its kind in member_type, so reading names needs no guess.
        .addColumn('member_id', 'text', (c) => c.notNull())
        .addColumn('member_type', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('task_assignees_pk', ['task_id', 'member_id'])
        .execute();
      // The `assignee` filter of a board's task list.
      await db.schema
        .createIndex('task_assignees_member_idx')
        .on('task_assignees')
        .columns(['board_id', 'member_id', 'task_id'])
        .execute();

      if (dialect === 'postgres') {
        for (const [name, event] of [
          ['agents_changed', 'insert or update or delete or truncate on agents'],
          ['users_name_changed', 'update of name on users'],
        ] as const) {
          await sql
            .raw(
              `create trigger ${name} after ${event}
               for each statement execute function laneboard_api_keys_changed()`,
            )
            .execute(db);
        }
        return;
      }
      for (const event of ['insert', 'update', 'delete']) {
        await sql
          .raw(
            `create trigger agents_${event}_stamp after ${event} on agents
             begin update key_change_stamp set n = n + 1; end`,
          )
          .execute(db);
      }
      await sql
        .raw(
          `create trigger users_name_stamp after update of name on users
           begin update key_change_stamp set n = n + 1; end`,
        )
        .execute(db);
    },
  };
}
