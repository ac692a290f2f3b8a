import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { requireCurrentSchema } from '../../src/db/migrate.js';
import { createTestDatabase, TEST_DATABASE_URL } from '../support/database.js';

// Kysely's migrator reads the catalog of every schema in the database; a schema dropped by someone
// else at that moment made migrations fail with 'schema "…" does not exist' (seen in CI, where test
// suites create and drop schemas side by side). Other schemas coming and going must not stop ours.
describe.skipIf(TEST_DATABASE_URL === null)('migrations beside schemas dropped by others (postgres)', () => {
  it('migrate fresh schemas while another connection creates and drops schemas in a loop', async () => {
    const churn = new pg.Client({ connectionString: TEST_DATABASE_URL as string });
    await churn.connect();
    let stop = false;
    const churning = (async () => {
      while (!stop) {
        const name = `lbchurn_${randomBytes(5).toString('hex')}`;
        await churn.query(`create schema ${name}; create table ${name}.t (id serial primary key, v text)`);
        await churn.query(`drop schema ${name} cascade`);
      }
    })();
    try {
      for (let n = 0; n < 8; n++) {
        const db = await createTestDatabase('postgres');
        // What every CLI command but migrate checks first (it reads the same catalog).
        for (let check = 0; check < 5; check++) await requireCurrentSchema(db.database);
        await db.drop();
      }
    } finally {
      stop = true;
      await churning;
      await churn.end();
    }
    expect(stop).toBe(true);
  }, 120_000);
});
