import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgListener } from '../../src/db/pg-listener.js';
import { TEST_DATABASE_URL } from '../support/database.js';
import { valueQueue } from '../support/value-queue.js';

/*
 * A LISTEN connection that PostgreSQL ends (a restart, a failover, an administrator's
 * pg_terminate_backend) is replaced, the owner is told it reconnected (to catch up on what it missed),
 * and notifications reach it again. PostgreSQL only: reported as skipped without TEST_DATABASE_URL.
 */
const CHANNEL = `laneboard_listener_test_${process.pid}`;

describe.skipIf(TEST_DATABASE_URL === null)('PostgreSQL LISTEN connection lost and replaced', () => {
  let pool: pg.Pool;
  beforeAll(() => {
    pool = new pg.Pool({ connectionString: TEST_DATABASE_URL as string, max: 2 });
  });
  afterAll(async () => {
    await pool.end();
  });

  /** The backends whose last statement was our LISTEN (an ended one may linger for a moment). */
  const listenerPids = async (): Promise<number[]> => {
    const { rows } = await pool.query<{ pid: number }>(
      'select pid from pg_stat_activity where query = $1 and pid <> pg_backend_pid()',
      [`LISTEN ${CHANNEL}`],
    );
    return rows.map((row) => row.pid);
  };

  it('reconnects, tells its owner it did, and hears notifications again', async () => {
    const payloads = valueQueue<string>();
    const connections = valueQueue<boolean>();
    const warnings: string[] = [];
    const listener = new PgListener(
      pool,
      CHANNEL,
      (payload) => payloads.push(payload),
      { warn: (_detail, message) => warnings.push(message) },
      (reconnected) => connections.push(reconnected),
    );
    listener.start();
    try {
      expect(await connections.next()).toBe(false);
      await pool.query('select pg_notify($1, $2)', [CHANNEL, 'before']);
      expect(await payloads.next()).toBe('before');

      const [pid, ...others] = await listenerPids();
      expect(pid).toBeTypeOf('number');
      expect(others).toEqual([]);
      await pool.query('select pg_terminate_backend($1)', [pid]);

      expect(await connections.next()).toBe(true);
      expect(warnings).toEqual(['LISTEN connection lost']);
      expect((await listenerPids()).filter((other) => other !== pid)).toHaveLength(1);
      await pool.query('select pg_notify($1, $2)', [CHANNEL, 'after']);
      expect(await payloads.next()).toBe('after');
    } finally {
      await listener.stop();
    }
    // Once stopped it hears nothing: a notification that another listener receives never reaches it.
    const others = valueQueue<string>();
    const other = new PgListener(pool, CHANNEL, (payload) => others.push(payload), { warn: () => {} });
    other.start();
    try {
      await other.connected();
      await pool.query('select pg_notify($1, $2)', [CHANNEL, 'stopped']);
      expect(await others.next()).toBe('stopped');
      expect(payloads.pending()).toBe(0);
    } finally {
      await other.stop();
    }
  });
});
