import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { precompiled } from '../../src/db/precompiled.js';
import { describeEachDialect, useTestDatabase } from '../support/dialects.js';

const NOW = '2026-11-21T10:00:00.000Z';

const laneRow = precompiled(1, (db, id: string) => db.selectFrom('lanes').selectAll().where('id', '=', id));

// Arguments in the opposite order of their parameters, with a constant between them.
const lanesNamed = precompiled(2, (db, name: string, boardId: string) =>
  db
    .selectFrom('lanes')
    .select(['id', 'name', 'position'])
    .where('board_id', '=', boardId)
    .where('position', '>=', 0)
    .where('name', '=', name)
    .orderBy('id'),
);

describeEachDialect('precompiled queries', (dialect) => {
  const t = useTestDatabase(dialect);
  beforeAll(async () => {
    const db = t.database.kysely;
    await db
      .insertInto('boards')
      .values([
        { id: 'brd_a', name: 'A', created_at: NOW, updated_at: NOW },
        { id: 'brd_b', name: 'B', created_at: NOW, updated_at: NOW },
      ])
      .execute();
    await db
      .insertInto('lanes')
      .values([
        { id: 'lane_1', board_id: 'brd_a', name: 'Todo', position: 0, created_at: NOW, updated_at: NOW },
        { id: 'lane_2', board_id: 'brd_a', name: 'Done', position: 1, created_at: NOW, updated_at: NOW },
        { id: 'lane_3', board_id: 'brd_b', name: 'Todo', position: 0, created_at: NOW, updated_at: NOW },
      ])
      .execute();
  });

  it('binds each argument to its own parameter, run after run', async () => {
    const db = t.database.kysely;
    expect(await lanesNamed(db, 'Todo', 'brd_a')).toEqual([{ id: 'lane_1', name: 'Todo', position: 0 }]);
    expect(await lanesNamed(db, 'Todo', 'brd_b')).toEqual([{ id: 'lane_3', name: 'Todo', position: 0 }]);
    expect(await lanesNamed(db, 'Done', 'brd_a')).toEqual([{ id: 'lane_2', name: 'Done', position: 1 }]);
    expect(await lanesNamed(db, 'Done', 'brd_b')).toEqual([]);
  });

  it('runs inside a transaction and sees its uncommitted writes', async () => {
    const seen = await t.database.kysely.transaction().execute(async (trx) => {
      await trx
        .insertInto('lanes')
        .values({
          id: 'lane_4',
          board_id: 'brd_b',
          name: 'Review',
          position: 1,
          created_at: NOW,
          updated_at: NOW,
        })
        .execute();
      const rows = await lanesNamed(trx, 'Review', 'brd_b');
      await trx.deleteFrom('lanes').where('id', '=', 'lane_4').execute();
      return rows;
    });
    expect(seen).toEqual([{ id: 'lane_4', name: 'Review', position: 1 }]);
  });

  describe.skipIf(dialect !== 'postgres')('on PostgreSQL', () => {
    it('is sent as a named statement, prepared once per connection', async () => {
      const prepared = await t.database.withPgConnection(async (db, client) => {
        for (let i = 0; i < 3; i++) await lanesNamed(db, 'Todo', 'brd_a');
        const { rows } = await client.query<{ name: string }>(
          "select name from pg_prepared_statements where name like 'lb\\_%'",
        );
        return rows.map((row) => row.name);
      });
      expect(prepared).toHaveLength(1);
    });

    it('answers after a schema change altered its result columns', async () => {
      const db = t.database.kysely;
      // Prepared on every pooled connection first, as a long-running server's would be.
      await Promise.all(Array.from({ length: 4 }, () => laneRow(db, 'lane_1')));
      await sql`alter table lanes add column probe text not null default 'p'`.execute(db);
      try {
        const rows = await Promise.all(Array.from({ length: 4 }, () => laneRow(db, 'lane_1')));
        for (const [row] of rows) expect(row).toMatchObject({ id: 'lane_1', name: 'Todo', probe: 'p' });
      } finally {
        await sql`alter table lanes drop column probe`.execute(db);
      }
      expect((await laneRow(db, 'lane_1'))[0]).not.toHaveProperty('probe');
    });
  });
});
