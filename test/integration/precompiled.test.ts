import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompiled } from '../../src/db/precompiled.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/database.js';

const NOW = '2026-11-21T10:00:00.000Z';

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

describe.each(DIALECTS)('precompiled queries ($dialect)', ({ dialect, skip }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (skip) return;
    t = await createTestDatabase(dialect);
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
  afterAll(async () => {
    await t?.drop();
  });

  describe.skipIf(skip)('', () => {
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
  });
});
