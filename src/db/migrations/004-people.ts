import type { Kysely } from 'kysely';

/**
 * People of the web UI: users, their server-side sessions, invites, failed sign-ins (shared by every
 * instance for throttling), who revealed which API key, key ownership and last use, and one row per
 * webhook delivery attempt for the delivery log.
 */
export const peopleMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull())
      // Lower-cased email: the unique key, so addresses compare case-insensitively on both databases.
      .addColumn('email_key', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('sessions')
      // SHA-256 of the cookie value: a leaked table does not hand out sessions.
      .addColumn('id_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_seen_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

    await db.schema
      .createTable('invites')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .addColumn('used_by', 'text')
      .execute();

    await db.schema
      .createTable('sign_in_failures')
      .addColumn('id', 'text', (c) => c.primaryKey())
      // `account:<email_key>` or `address:<ip>`.
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('sign_in_failures_subject_idx')
      .on('sign_in_failures')
      .columns(['subject', 'at'])
      .execute();

    await db.schema
      .createTable('api_key_reveals')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('api_key_id', 'text', (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('api_key_reveals_key_idx')
      .on('api_key_reveals')
      .columns(['api_key_id', 'at'])
      .execute();

    await db.schema.alterTable('api_keys').addColumn('owner_user_id', 'text').execute();
    await db.schema.alterTable('api_keys').addColumn('last_used_at', 'text').execute();
    await db.schema.createIndex('api_keys_owner_idx').on('api_keys').column('owner_user_id').execute();

    await db.schema
      .createTable('webhook_delivery_attempts')
      .addColumn('delivery_id', 'text', (c) =>
        c.notNull().references('webhook_deliveries.id').onDelete('cascade'),
      )
      .addColumn('number', 'integer', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('response_status', 'integer')
      .addColumn('response_body', 'text')
      .addColumn('duration_ms', 'integer')
      .addColumn('error', 'text')
      .addPrimaryKeyConstraint('webhook_delivery_attempts_pk', ['delivery_id', 'number'])
      .execute();
  },
};
