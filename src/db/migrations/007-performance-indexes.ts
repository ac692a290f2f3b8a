import { type Kysely, sql } from 'kysely';
import { KEY_CHANGES_CHANNEL } from '../key-changes.js';
import type { Dialect } from '../schema.js';

/*
 * Performance support. The hot queries' indexes already exist (test/integration/query-plans.test.ts
 * asserts the plans), so this adds none yet. On PostgreSQL it adds what the key-lookup cache needs to
 * hear of changes from every instance and process: statement-level triggers that NOTIFY on any change
 * to keys or grants (delivered at commit, once per transaction). SQLite needs nothing: its change stamp
 * is read from the connection (see db/key-changes.ts).
 */
export function performanceMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'postgres') return;
      await sql
        .raw(
          `create function laneboard_api_keys_changed() returns trigger language plpgsql as $$
           begin perform pg_notify('${KEY_CHANGES_CHANNEL}', ''); return null; end $$`,
        )
        .execute(db);
      for (const table of ['api_keys', 'api_key_grants']) {
        await sql
          .raw(
            `create trigger ${table}_changed after insert or update or delete or truncate on ${table}
             for each statement execute function laneboard_api_keys_changed()`,
          )
          .execute(db);
      }
    },
  };
}
