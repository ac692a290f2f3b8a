import { sql } from 'kysely';
import type { Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import type { Dialect, Executor } from '../../src/db/schema.js';
import { createTestDatabase } from '../support/database.js';

/**
 * Runs `work` on a fresh database of `dialect` migrated up to `last` and no further: the rows a later
 * migration meets are written by `work` with the columns of that time. The database is dropped afterwards.
 */
export async function atMigration(
  dialect: Dialect,
  last: string,
  work: (database: Database) => Promise<void>,
): Promise<void> {
  const { database, drop } = await createTestDatabase(dialect, { migrate: false });
  try {
    await migrateToLatest(database, last);
    await work(database);
  } finally {
    await drop();
  }
}

/** Board `brd` with one lane, `lane`, created at `now`. */
export async function insertBoardWithLane(db: Executor, now: string): Promise<void> {
  await sql`insert into boards (id, name, created_at, updated_at) values ('brd', 'B', ${now}, ${now})`.execute(
    db,
  );
  await sql`insert into lanes (id, board_id, name, position, created_at, updated_at)
    values ('lane', 'brd', 'L', 0, ${now}, ${now})`.execute(db);
}
