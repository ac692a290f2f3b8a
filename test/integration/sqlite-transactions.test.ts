import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../src/domain/transaction.js';
import { useTestDatabase } from '../support/dialects.js';

const NOW = '2026-11-21T10:00:00.000Z';

// Another process (the CLI) writing to the embedded database while the server runs.
describe('SQLite write transactions beside another writer', () => {
  const t = useTestDatabase('sqlite');
  let other: SqliteDatabase.Database;
  beforeAll(() => {
    other = new SqliteDatabase(t.sqliteFile as string);
  });
  afterAll(() => {
    other?.close();
  });

  it('holds the write lock from the start, so a read-then-write transaction is never refused midway', async () => {
    let otherWriter: 'wrote' | 'waited' = 'wrote';
    await inTransaction(t.database, async (tx) => {
      await tx.db.selectFrom('boards').select('id').execute();
      try {
        other
          .prepare("insert into boards (id, name, created_at, updated_at) values ('brd_cli', 'CLI', ?, ?)")
          .run(NOW, NOW);
      } catch (error) {
        expect((error as { code?: string }).code).toBe('SQLITE_BUSY');
        otherWriter = 'waited';
      }
      // A deferred transaction would fail here with SQLITE_BUSY_SNAPSHOT after the other write.
      await tx.db
        .insertInto('boards')
        .values({ id: 'brd_srv', name: 'Server', created_at: NOW, updated_at: NOW })
        .execute();
    });
    expect(otherWriter).toBe('waited');
    const ids = await t.database.kysely.selectFrom('boards').select('id').execute();
    expect(ids.map((r) => r.id)).toEqual(['brd_srv']);
  });
});
