import type { Kysely } from 'kysely';

/**
 * Idempotency keys of external-API POSTs: the first request's fingerprint and, once it succeeded, its
 * response, replayed to a retry with the same key. Kept 24 hours.
 */
export const idempotencyMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('idempotency_keys')
      .addColumn('api_key_id', 'text', (c) => c.notNull())
      .addColumn('idempotency_key', 'text', (c) => c.notNull())
      .addColumn('fingerprint', 'text', (c) => c.notNull())
      // Null while the first request is being served.
      .addColumn('status_code', 'integer')
      .addColumn('response_body', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('idempotency_keys_pk', ['api_key_id', 'idempotency_key'])
      .execute();
    await db.schema
      .createIndex('idempotency_keys_created_idx')
      .on('idempotency_keys')
      .column('created_at')
      .execute();
  },
};
