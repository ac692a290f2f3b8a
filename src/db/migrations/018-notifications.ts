import type { Kysely } from 'kysely';

/*
 * Notifications (issue 29): what the web UI's inbox lists, one row per person and event, and the boards
 * each person has muted. Rows are written by the notification consumer of the activity in the change's
 * own transaction; every notification is about a task, so deleting the task (or its board, whose tasks
 * go with it) deletes its notifications.
 */
export const notificationsMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('notifications')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('person_id', 'text', (c) => c.notNull())
      // assigned | mentioned | commented | moved | todos_done
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('board_id', 'text', (c) => c.notNull())
      .addColumn('task_id', 'text', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
      // The comment a mention or comment notification is about; null for a mention in the description.
      .addColumn('comment_id', 'text')
      .addColumn('actor_kind', 'text', (c) => c.notNull())
      .addColumn('actor_name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('read_at', 'text')
      .execute();
    // The unread count, and the unread-only list, per person.
    await db.schema
      .createIndex('notifications_person_idx')
      .on('notifications')
      .columns(['person_id', 'read_at', 'created_at'])
      .execute();
    // The inbox pages by id (ids sort in creation order, lib/ids.ts).
    await db.schema
      .createIndex('notifications_person_list_idx')
      .on('notifications')
      .columns(['person_id', 'id'])
      .execute();
    // Deleting a task deletes its notifications (the foreign key's cascade needs this index).
    await db.schema.createIndex('notifications_task_idx').on('notifications').column('task_id').execute();

    await db.schema
      .createTable('board_mutes')
      .addColumn('person_id', 'text', (c) => c.notNull())
      .addColumn('board_id', 'text', (c) => c.notNull().references('boards.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('board_mutes_pk', ['person_id', 'board_id'])
      .execute();
    await db.schema.createIndex('board_mutes_board_idx').on('board_mutes').column('board_id').execute();
  },
};
