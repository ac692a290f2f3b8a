import { beforeAll, beforeEach, expect } from 'vitest';
import { findTask } from '../../src/db/repositories/tasks.js';
import type { TestDatabase } from '../support/database.js';
import { useTestDatabase } from '../support/dialects.js';

/*
 * On SQLite, task detail takes positions from a per-lane cache kept current by TEMP triggers
 * (src/db/repositories/task-positions.ts). Every position it answers must equal the one counted from
 * the committed rows, whatever changed the lane: appends, moves, archiving, deletes, rolled-back
 * transactions and commits by another connection.
 */

export const NOW = '2026-11-21T10:00:00.000Z';

export function taskRow(id: string, rank: number, lane: string) {
  return {
    id,
    board_id: 'brd_1',
    lane_id: lane,
    short_id: `s${id}`,
    title: id,
    description: '',
    priority: 0,
    tags: '[]',
    archived: 0,
    rank,
    created_at: NOW,
    updated_at: NOW,
    last_turn_at: null,
  };
}

export interface PositionLanes {
  /** A SQLite database with board brd_1. */
  t: TestDatabase;
  /** A new, empty lane of brd_1 for each test. */
  laneId(): string;
  /** Inserts a task into the lane (this test's lane by default). */
  insert(id: string, rank: number, lane?: string): Promise<void>;
  /** Every task of the lane: the position findTask answers against the one counted from the rows. */
  expectPositionsOf(lane: string): Promise<void>;
}

/** A SQLite database for the enclosing describe, and a fresh lane for each of its tests. */
export function usePositionLanes(): PositionLanes {
  const t = useTestDatabase('sqlite');
  let next = 0;
  let laneId: string | undefined;
  beforeAll(async () => {
    await t.database.kysely
      .insertInto('boards')
      .values({ id: 'brd_1', name: 'B', created_at: NOW, updated_at: NOW })
      .execute();
  });
  beforeEach(async () => {
    const lane = `lane_${next++}`;
    await t.database.kysely
      .insertInto('lanes')
      .values({ id: lane, board_id: 'brd_1', name: 'L', position: next, created_at: NOW, updated_at: NOW })
      .execute();
    laneId = lane;
  });
  const currentLane = (): string => {
    if (laneId === undefined) throw new Error('the lane is created in beforeEach');
    return laneId;
  };
  return {
    t,
    laneId: currentLane,
    async insert(id, rank, lane = currentLane()) {
      await t.database.kysely
        .insertInto('tasks')
        .values(taskRow(id, rank, lane))
        .execute();
    },
    async expectPositionsOf(lane) {
      const rows = await t.database.kysely
        .selectFrom('tasks')
        .select(['id', 'archived'])
        .where('lane_id', '=', lane)
        .orderBy('archived')
        .orderBy('rank')
        .orderBy('id')
        .execute();
      let position = 0;
      for (const row of rows) {
        const expected = row.archived === 0 ? position++ : null;
        expect((await findTask(t.database.kysely, 'brd_1', row.id))?.position, row.id).toBe(expected);
      }
    },
  };
}
