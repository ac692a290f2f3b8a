import type { Kysely } from 'kysely';

/** Indexes for pruning old webhook history without scanning it. */
export const retentionIndexesMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createIndex('deliveries_finished_idx')
      .on('webhook_deliveries')
      .columns(['status', 'created_at'])
      .execute();
    await db.schema.createIndex('events_created_idx').on('webhook_events').column('created_at').execute();
  },
};
