import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../schema.js';

/*
 * The outbox's webhook matching is cached per board (webhooks/board-webhooks.ts) under the same change
 * stamp as the key lookups: on PostgreSQL, changes to `webhooks` now notify the channel that key and
 * grant changes notify (function of migration 007). SQLite needs nothing: its stamp comes from the
 * connection (db/key-changes.ts).
 */
export function webhookChangesMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'postgres') return;
      await sql
        .raw(
          `create trigger webhooks_changed after insert or update or delete or truncate on webhooks
           for each statement execute function laneboard_api_keys_changed()`,
        )
        .execute(db);
    },
  };
}
