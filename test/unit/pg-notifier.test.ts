import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { PgNotifier } from '../../src/db/pg-notifier.js';

/** A pool that records each statement's notifications and fails when told to. */
function fakePool() {
  const sent: Array<{ channels: string[]; payloads: string[] }> = [];
  let failNext = false;
  let release: () => void = () => {};
  let gate: Promise<void> | null = null;
  const pool = {
    async query(_text: string, values: [string[], string[]]) {
      if (gate) await gate;
      if (failNext) {
        failNext = false;
        throw Object.assign(new Error('connection terminated'), { code: '57P01' });
      }
      sent.push({ channels: values[0], payloads: values[1] });
      return { rows: [] };
    },
  };
  return {
    pool: pool as unknown as pg.Pool,
    sent,
    failNext: () => {
      failNext = true;
    },
    hold: () => {
      gate = new Promise((resolve) => {
        release = () => {
          gate = null;
          resolve();
        };
      });
    },
    release: () => release(),
  };
}

describe('notifications after commit', () => {
  it('sends at once when idle, and gathers what comes while a send is in flight into one statement', async () => {
    const fake = fakePool();
    const notifier = new PgNotifier(fake.pool, () => {});
    fake.hold();
    notifier.notify('a', '1');
    notifier.notify('a', '2');
    notifier.notify('b', '');
    notifier.notify('b', '');
    fake.release();
    await notifier.flushed();
    expect(fake.sent).toEqual([
      { channels: ['a'], payloads: ['1'] },
      { channels: ['a', 'b'], payloads: ['2', ''] },
    ]);
  });

  it('reports a failed send with its channels and keeps sending later ones', async () => {
    const fake = fakePool();
    const failures: Array<{ code: unknown; channels: string[] }> = [];
    const notifier = new PgNotifier(fake.pool, (error, channels) =>
      failures.push({ code: (error as { code?: unknown }).code, channels }),
    );
    fake.failNext();
    notifier.notify('a', '1');
    await notifier.flushed();
    notifier.notify('a', '2');
    await notifier.flushed();
    expect(failures).toEqual([{ code: '57P01', channels: ['a'] }]);
    expect(fake.sent).toEqual([{ channels: ['a'], payloads: ['2'] }]);
  });
});
