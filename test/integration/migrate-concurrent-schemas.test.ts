import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { requireCurrentSchema } from '../../src/db/migrate.js';
import { createTestDatabase, TEST_DATABASE_URL } from '../support/database.js';

// Kysely's migrator reads the catalog of every schema in the database; a schema dropped by someone
// else at that moment made migrations fail with 'schema "…" does not exist' (seen in CI, where test
// suites create and drop schemas side by side). Other schemas coming and going must not stop ours.
const COLUMNS = Array.from({ length: 20 }, (_, n) => `c${n} text`).join(', ');
const TABLES = (schema: string) =>
  Array.from(
    { length: 20 },
    (_, n) => `create table ${schema}.t${n} (id serial primary key, ${COLUMNS})`,
  ).join(';');

describe.skipIf(TEST_DATABASE_URL === null)('migrations beside schemas dropped by others (postgres)', () => {
  it('migrate fresh schemas while another connection creates and drops schemas in a loop', async () => {
    const churns = await Promise.all(
      [1, 2, 3].map(async () => {
        const client = new pg.Client({ connectionString: TEST_DATABASE_URL as string });
        await client.connect();
        return client;
      }),
    );
    let stop = false;
    // Many tables and columns, as a test's schema has: Kysely asks pg_get_serial_sequence about every
    // column, and one whose table is being dropped fails with 'column "…" of relation "…" does not
    // exist' (seen in CI) rather than with 'relation … does not exist'.
    const churning = churns.map(async (churn) => {
      while (!stop) {
        const name = `lbchurn_${randomBytes(5).toString('hex')}`;
        await churn.query(`create schema ${name}; ${TABLES(name)}`);
        await churn.query(`drop schema ${name} cascade`);
      }
    });
    try {
      for (let n = 0; n < 8; n++) {
        const db = await createTestDatabase('postgres');
        // What every CLI command but migrate checks first (it reads the same catalog).
        for (let check = 0; check < 5; check++) await requireCurrentSchema(db.database);
        await db.drop();
      }
    } finally {
      stop = true;
      await Promise.all(churning);
      await Promise.all(churns.map((churn) => churn.end()));
    }
    expect(stop).toBe(true);
  }, 120_000);
});
