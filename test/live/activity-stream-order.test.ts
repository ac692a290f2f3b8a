import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { insertActivity } from '../../src/db/repositories/activities.js';
import { activityIdBounds } from '../../src/db/repositories/activity-stream.js';
import type { Actor } from '../../src/domain/actor.js';
import { OrderedActivityReader } from '../../src/live/activity-stream-reader.js';
import { openSecondConnection } from '../support/database.js';
import { describeEachDialect, useTestApp } from '../support/dialects.js';
import { cursorPosition } from './activity-stream-client.js';

/** An activity written by a transaction of its own that stays open until `finish` is called. */
interface HeldWrite {
  id: number;
  finish(outcome: 'commit' | 'rollback'): Promise<void>;
}

/**
 * Activity ids on PostgreSQL are drawn before the commit that makes them visible, so a smaller id can
 * appear after a larger one. The stream hands out an activity only once no smaller id can still
 * appear: a commit in flight holds later activities back until it lands, and a failed one releases
 * them. Two connections make the race deterministic: one holds its transaction open.
 */
describeEachDialect('activity stream order', (dialect) => {
  const t = useTestApp(dialect);
  let other: Database;
  let boardId: string;
  let actor: Actor;

  beforeAll(async () => {
    if (dialect === 'postgres') other = openSecondConnection(t.db, 2);
    const { key } = await t.createKey('all', 'Reader');
    actor = (await t.services.apiKeys.authenticate(key)) as Actor;
    const board = await t.request(key, 'POST', '/api/ext/v1/boards', { name: 'Order' });
    boardId = board.json().data.id;
  });
  afterAll(async () => {
    await other?.close();
  });

  const insert = (db: Database['kysely'], title: string) =>
    sql<{ id: string }>`insert into activities
      (board_id, task_id, type, actor_kind, actor_id, actor_name, origin, data, created_at)
      values (${boardId}, null, 'task.updated', 'system', null, 'CLI', 'cli', ${JSON.stringify({ title })},
              ${new Date().toISOString()}) returning id`.execute(db);

  /** A write on the second connection whose transaction stays open. */
  async function heldWrite(title: string): Promise<HeldWrite> {
    let release: (outcome: 'commit' | 'rollback') => void = () => {};
    const outcome = new Promise<'commit' | 'rollback'>((resolve) => {
      release = resolve;
    });
    let resolveId: (id: number) => void = () => {};
    const idKnown = new Promise<number>((resolve) => {
      resolveId = resolve;
    });
    const done = other.kysely
      .transaction()
      .execute(async (trx) => {
        resolveId(Number((await insert(trx, title)).rows[0]?.id));
        if ((await outcome) === 'rollback') throw new Error('rolled back on purpose');
      })
      .catch((error: unknown) => {
        if (!(error instanceof Error && error.message === 'rolled back on purpose')) throw error;
      });
    const id = await idKnown;
    return {
      id,
      finish: async (how) => {
        release(how);
        await done;
      },
    };
  }

  const committedWrite = (title: string) =>
    insertActivity(t.db.database.kysely, {
      board_id: boardId,
      task_id: null,
      type: 'task.updated',
      actor_kind: 'system',
      actor_id: null,
      actor_name: 'CLI',
      origin: 'cli',
      data: JSON.stringify({ title }),
      created_at: new Date().toISOString(),
    });
  const titles = (rows: Array<{ data: string }>) =>
    rows.map((r) => (JSON.parse(r.data) as { title: string }).title);

  it.skipIf(dialect === 'sqlite')(
    'holds a later commit back until an earlier id commits, then hands out both in order',
    async () => {
      const stream = t.services.activityStream;
      const request = { afterField: 'after', boardId, limit: 10 };
      const present = await stream.waitForEvents(actor, { ...request, after: null, waitMs: 0 });
      const { newest } = await activityIdBounds(t.db.database.kysely);
      const reader = new OrderedActivityReader(t.db.database, newest, Date.now, {
        gapGraceMs: 0,
        barrierEveryMs: 0,
        barrierTimeoutMs: 50,
      });
      const early = await heldWrite('early');
      const late = await committedWrite('late');
      expect(late).toBeGreaterThan(early.id);
      const held = await reader.next(100);
      expect([held.rows.length, held.blocked]).toEqual([0, true]);
      // The long poll waits too: answering `late` now would lose `early` for a client resuming after it.
      const meanwhile = await stream.waitForEvents(actor, {
        ...request,
        after: present.cursor,
        waitMs: 1000,
      });
      expect(meanwhile.data).toEqual([]);
      await early.finish('commit');
      const both = await reader.next(100);
      expect(titles(both.rows)).toEqual(['early', 'late']);
      expect(both.blocked).toBe(false);
      const page = await stream.waitForEvents(actor, { ...request, after: present.cursor, waitMs: 10_000 });
      expect(page.data.map((e) => cursorPosition(e.cursor))).toEqual([early.id, late]);
    },
  );

  it.skipIf(dialect === 'sqlite')(
    'releases later activities once a failed commit leaves its id unused',
    async () => {
      const { newest } = await activityIdBounds(t.db.database.kysely);
      const reader = new OrderedActivityReader(t.db.database, newest, Date.now, {
        gapGraceMs: 0,
        barrierEveryMs: 0,
        barrierTimeoutMs: 50,
      });
      const failing = await heldWrite('never');
      const late = await committedWrite('after the failure');
      expect((await reader.next(100)).blocked).toBe(true);
      await failing.finish('rollback');
      const read = await reader.next(100);
      expect(titles(read.rows)).toEqual(['after the failure']);
      expect(read.rows.map((r) => Number(r.id))).toEqual([late]);
      expect(read.blocked).toBe(false);
    },
  );

  it('reads every board’s activities in id order from a position, never held back without a gap', async () => {
    const { newest } = await activityIdBounds(t.db.database.kysely);
    const reader = new OrderedActivityReader(t.db.database, newest, Date.now);
    for (const title of ['one', 'two', 'three']) await committedWrite(title);
    const first = await reader.next(2);
    expect([titles(first.rows), first.blocked, first.more]).toEqual([['one', 'two'], false, true]);
    const rest = await reader.next(2);
    expect([titles(rest.rows), rest.blocked, rest.more]).toEqual([['three'], false, false]);
    expect(reader.position).toBe(Number(rest.rows[0]?.id));
  });
});
