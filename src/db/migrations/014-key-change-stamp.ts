import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../schema.js';

/** The tables whose rows the key-lookup and board-webhook caches are read from (db/key-changes.ts). */
const KEY_CHANGE_TABLES = ['api_keys', 'api_key_grants', 'webhooks'] as const;

/*
 * SQLite: the caches of key lookups and of each board's webhooks were stamped with the connection's
 * `PRAGMA data_version`, which moves with every commit of another connection: the webhook dispatcher's
 * thread commits every few milliseconds while it delivers, so the caches were emptied as often, and each
 * request paid a key lookup and each change a webhook query. A counter in the schema, moved by triggers
 * on every write to keys, grants and webhooks from any connection (a cascade included), changes only
 * when what the caches hold may have. A migration that rebuilds one of these tables must make its
 * triggers again and move the counter (a test writes to each table and expects the counter to move).
 *
 * PostgreSQL keeps its NOTIFY triggers (migrations 007 and 011).
 */
export function keyChangeStampMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect === 'postgres') return;
      await sql`create table key_change_stamp (
        id integer primary key check (id = 1),
        n integer not null
      )`.execute(db);
      await sql`insert into key_change_stamp (id, n) values (1, 0)`.execute(db);
      for (const table of KEY_CHANGE_TABLES) {
        for (const event of ['insert', 'update', 'delete']) {
          await sql
            .raw(
              `create trigger ${table}_${event}_stamp after ${event} on ${table}
               begin update key_change_stamp set n = n + 1; end`,
            )
            .execute(db);
        }
      }
    },
  };
}
