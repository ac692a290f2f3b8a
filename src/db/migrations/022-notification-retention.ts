import { type Kysely, sql } from 'kysely';

/*
 * Notification retention (issue 29): the hourly job deletes old read notifications, and older unread
 * ones, of every person, in small batches by age. One partial index for each, so a batch reads only the
 * oldest rows of its kind: without them each batch would scan the whole table, and with one index on
 * (created_at, read_at) the read batches would step over every old unread row again, batch after batch,
 * all while holding SQLite's write lock. Both databases use a partial index for `read_at IS [NOT] NULL`.
 */
export const notificationRetentionMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createIndex('notifications_read_created_idx')
      .on('notifications')
      .column('created_at')
      .where(sql.ref('read_at'), 'is not', null)
      .execute();
    await db.schema
      .createIndex('notifications_unread_created_idx')
      .on('notifications')
      .column('created_at')
      .where(sql.ref('read_at'), 'is', null)
      .execute();
  },
};
