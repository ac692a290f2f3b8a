import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { insertActivity } from '../../src/db/repositories/activities.js';
import { atMigration } from './migration-fixtures.js';

const NOW = '2026-11-23T10:00:00.000Z';

const activity = (boardId: string) => ({
  board_id: boardId,
  task_id: null,
  type: 'board.created' as const,
  actor_kind: 'api_key' as const,
  actor_id: 'key_1',
  actor_name: 'Bot',
  origin: 'api' as const,
  data: '{}',
  created_at: NOW,
});

/** An activity as versions before migration 013 stored it (straight into `activities`). */
async function insertOld(database: ReturnType<typeof openDatabase>, boardId: string): Promise<number> {
  const row = activity(boardId);
  const result = await sql<{ id: number }>`insert into activities
    (board_id, task_id, type, actor_kind, actor_id, actor_name, origin, data, created_at)
    values (${row.board_id}, null, ${row.type}, ${row.actor_kind}, ${row.actor_id}, ${row.actor_name},
      ${row.origin}, ${row.data}, ${row.created_at}) returning id`.execute(database.kysely);
  return Number(result.rows[0]?.id);
}

async function createsSequence(database: ReturnType<typeof openDatabase>): Promise<boolean> {
  const rows = await sql<{ sql: string }>`select sql from sqlite_master where name = 'activities'`.execute(
    database.kysely,
  );
  return /autoincrement/i.test(rows.rows[0]?.sql ?? '');
}

// SQLite only: PostgreSQL's bigserial is unchanged by this migration.
describe('migration 010-activity-rowids (sqlite)', () => {
  it('rebuilds activities without AUTOINCREMENT, keeping rows and ids; new ids follow the last', async () => {
    await atMigration('sqlite', '009-activity-insert-cost', async (database) => {
      const ids = [];
      for (const board of ['brd_a', 'brd_b', 'brd_a']) ids.push(await insertOld(database, board));
      expect(await createsSequence(database)).toBe(true);
      await migrateToLatest(database);
      expect(await createsSequence(database)).toBe(false);
      const kept = await sql<{
        id: number;
        board_id: string;
      }>`select id, board_id from activities order by id`.execute(database.kysely);
      expect(kept.rows).toEqual(ids.map((id, n) => ({ id, board_id: ['brd_a', 'brd_b', 'brd_a'][n] })));
      expect(await insertActivity(database.kysely, activity('brd_c'))).toBe(Math.max(...ids) + 1);
      const indexes = await sql<{ name: string }>`select name from sqlite_master
        where type = 'index' and tbl_name = 'activities' order by name`.execute(database.kysely);
      expect(indexes.rows.map((r) => r.name)).toEqual(['activities_board_idx', 'activities_task_idx']);
    });
  });

  it('leaves AUTOINCREMENT on a database whose activities were all pruned, so no id is handed out twice', async () => {
    await atMigration('sqlite', '009-activity-insert-cost', async (database) => {
      const last = await insertOld(database, 'brd_a');
      await sql`delete from activities`.execute(database.kysely);
      await migrateToLatest(database);
      expect(await createsSequence(database)).toBe(true);
      expect(await insertActivity(database.kysely, activity('brd_a'))).toBe(last + 1);
    });
  });
});
