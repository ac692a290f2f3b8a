import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgListener } from '../../src/db/pg-listener.js';
import { inTransaction } from '../../src/db/transaction.js';
import { TEST_DATABASE_URL } from '../support/database.js';
import { useTestDatabase } from '../support/dialects.js';
import { waitUntil } from '../support/wait.js';

const CHANNEL = 'laneboard_test_commit_statements';
const silent = { warn: () => {} };

// PostgreSQL transactions send BEGIN and COMMIT themselves so that COMMIT can carry statements
// (Tx.atCommit), and notifications go out after commit (Tx.notifyAfterCommit).
describe.skipIf(TEST_DATABASE_URL === null)(
  'statements sent with COMMIT, notifications after it (postgres)',
  () => {
    const db = useTestDatabase('postgres');
    let listener: PgListener;
    const heard: string[] = [];
    beforeAll(async () => {
      const pool = db.database.pgPool;
      if (!pool) throw new Error('PostgreSQL expected');
      listener = new PgListener(pool, CHANNEL, (payload) => heard.push(payload), silent);
      listener.start();
      await listener.connected();
    });
    afterAll(async () => {
      await listener?.stop();
    });

    /** Sends `marker` once everything before it is sent, and waits until it is heard. */
    async function heardAfterAll(marker: string): Promise<void> {
      const notifier = db.database.pgNotifier;
      if (!notifier) throw new Error('PostgreSQL expected');
      await notifier.flushed();
      notifier.notify(CHANNEL, marker);
      await notifier.flushed();
      await waitUntil(`the notification ${marker}`, async () => (heard.includes(marker) ? true : undefined));
    }

    const boardNames = async () =>
      (await db.database.kysely.selectFrom('boards').select('name').orderBy('name').execute()).map(
        (r) => r.name,
      );
    const board = (id: string) =>
      `insert into boards (id, name, created_at, updated_at) values ('${id}', '${id}', 'now', 'now') returning id`;

    it('commits the work and the statements together, and hands each its rows once committed', async () => {
      const rows: unknown[][] = [];
      await inTransaction(db.database, async (tx) => {
        await tx.db
          .insertInto('boards')
          .values({ id: 'brd_a', name: 'brd_a', created_at: 'now', updated_at: 'now' })
          .execute();
        tx.atCommit(board('brd_b'), (r) => rows.push(r));
        tx.atCommit(board('brd_c'), (r) => rows.push(r));
        tx.notifyAfterCommit(CHANNEL, 'committed');
      });
      expect(await boardNames()).toEqual(['brd_a', 'brd_b', 'brd_c']);
      expect(rows).toEqual([[{ id: 'brd_b' }], [{ id: 'brd_c' }]]);
      await waitUntil('the notification', async () => (heard.includes('committed') ? true : undefined));
    });

    it('a failing statement at COMMIT rolls everything back, and nothing is notified', async () => {
      const rows: unknown[][] = [];
      await expect(
        inTransaction(db.database, async (tx) => {
          await tx.db
            .insertInto('boards')
            .values({ id: 'brd_d', name: 'brd_d', created_at: 'now', updated_at: 'now' })
            .execute();
          tx.atCommit(board('brd_e'), (r) => rows.push(r));
          tx.atCommit(board('brd_a'), (r) => rows.push(r)); // a duplicate key
          tx.notifyAfterCommit(CHANNEL, 'rolled back');
        }),
      ).rejects.toMatchObject({ code: '23505' });
      expect(await boardNames()).toEqual(['brd_a', 'brd_b', 'brd_c']);
      expect(rows).toEqual([]);
      // The connection went back to the pool outside any transaction: the next one works.
      await inTransaction(db.database, async (tx) => tx.atCommit(board('brd_f')));
      // Notifications arrive in the order they are sent: once a later one is heard, the rolled-back
      // transaction's would have been too.
      await heardAfterAll('after the rollback');
      expect(heard).not.toContain('rolled back');
      expect(await boardNames()).toEqual(['brd_a', 'brd_b', 'brd_c', 'brd_f']);
    });

    it('batches notifications sent while one is in flight, and sends identical ones once', async () => {
      const notifier = db.database.pgNotifier;
      if (!notifier) throw new Error('PostgreSQL expected');
      heard.length = 0;
      notifier.notify(CHANNEL, 'one');
      notifier.notify(CHANNEL, 'two');
      notifier.notify(CHANNEL, 'two');
      notifier.notify(CHANNEL, 'three');
      await notifier.flushed();
      await heardAfterAll('four');
      expect(heard).toEqual(['one', 'two', 'three', 'four']);
    });
  },
);
