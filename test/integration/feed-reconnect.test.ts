import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/database.js';
import { type BoardChange, ChangeFeed } from '../../src/live/change-feed.js';
import { NotificationFeed } from '../../src/live/notification-feed.js';
import { TEST_DATABASE_URL } from '../support/database.js';
import { valueQueue } from '../support/value-queue.js';

/*
 * The live feeds after PostgreSQL ends their LISTEN connection (a restart, a failover): a board's
 * subscribers are told to re-read from where they were (a change without ids), every open inbox
 * re-reads its count, and what is committed afterwards reaches them again. The connections carry an
 * application_name of this test's own, so only its listener is ended, not those of suites beside it.
 */
describe.skipIf(TEST_DATABASE_URL === null)(
  'live feeds when the LISTEN connection is lost (postgres)',
  () => {
    const appName = `lb_feed_reconnect_${randomBytes(4).toString('hex')}`;
    let database: Database;
    beforeAll(() => {
      const url = new URL(TEST_DATABASE_URL as string);
      url.searchParams.set('application_name', appName);
      database = openDatabase({ databaseUrl: url.toString(), dataDir: os.tmpdir(), poolSize: 2 });
    });
    afterAll(async () => {
      await database.close();
    });

    /** Ends this test's LISTEN connection as an administrator would, and returns once it is gone. */
    async function endListener(channel: string): Promise<void> {
      const pool = database.pgPool;
      if (!pool) throw new Error('expected PostgreSQL');
      const { rows } = await pool.query<{ ended: boolean }>(
        `select pg_terminate_backend(pid) as ended from pg_stat_activity
       where application_name = $1 and query = $2 and pid <> pg_backend_pid()`,
        [appName, `LISTEN ${channel}`],
      );
      expect(rows.map((row) => row.ended)).toEqual([true]);
    }

    it('tells a board’s subscribers to re-read, then hears commits again', async () => {
      const warnings: string[] = [];
      const feed = new ChangeFeed(database, { warn: (_detail, message) => warnings.push(message) });
      const boardId = `brd_${randomBytes(6).toString('hex')}`;
      const changes = valueQueue<BoardChange>();
      const unsubscribe = feed.subscribe(boardId, (change) => changes.push(change));
      try {
        await feed.ready();
        feed.onCommitted([{ id: 7, boardId }]);
        expect(await changes.next()).toEqual({ boardId, fromId: 7, toId: 7 });

        await endListener('laneboard_changes');
        expect(await changes.next()).toEqual({ boardId, fromId: null, toId: null });
        expect(warnings).toEqual(['LISTEN connection lost']);

        feed.onCommitted([{ id: 9, boardId }]);
        expect(await changes.next()).toEqual({ boardId, fromId: 9, toId: 9 });
      } finally {
        unsubscribe();
        await feed.stop();
      }
    });

    it('has every open inbox re-read its count, then hears new notifications again', async () => {
      const feed = new NotificationFeed(database, { warn: () => {} });
      const personId = `usr_${randomBytes(6).toString('hex')}`;
      const told = valueQueue<string>();
      const unsubscribe = feed.subscribe(personId, () => told.push('changed'));
      try {
        await feed.ready();
        feed.publish([personId]);
        expect(await told.next()).toBe('changed');

        await endListener('laneboard_notifications');
        expect(await told.next()).toBe('changed');

        feed.publish([personId]);
        expect(await told.next()).toBe('changed');
        expect(feed.subscriptions).toBe(1);
      } finally {
        unsubscribe();
        await feed.stop();
      }
    });
  },
);
