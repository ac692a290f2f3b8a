import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/database.js';
import { isLockBusy } from '../../src/db/sqlite-lock-wait.js';
import { holdWriteLock } from '../support/sqlite-write-lock.js';

const dirs: string[] = [];
const opened: Database[] = [];
afterEach(async () => {
  for (const database of opened.splice(0)) await database.close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function servingDatabase(): Promise<{ database: Database; file: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-lock-wait-'));
  dirs.push(dir);
  const file = path.join(dir, 'db.sqlite');
  const database = openDatabase({ databaseUrl: null, dataDir: dir, sqliteFile: file });
  opened.push(database);
  await sql`create table notes (id integer primary key, body text)`.execute(database.kysely);
  return { database, file };
}

/** How often a 5 ms interval fired while `work` ran: near zero when the event loop was blocked. */
async function ticksDuring(work: () => Promise<void>): Promise<{ ticks: number; ms: number }> {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 5);
  const started = performance.now();
  try {
    await work();
    return { ticks, ms: performance.now() - started };
  } finally {
    clearInterval(timer);
  }
}

describe('the serving SQLite connection waiting for the write lock', () => {
  it('waits for another writer without stopping the event loop, then commits', async () => {
    const { database, file } = await servingDatabase();
    const { exited } = await holdWriteLock(file, 300);
    const { ticks, ms } = await ticksDuring(() =>
      database.kysely.transaction().execute(async (trx) => {
        await sql`insert into notes (body) values ('served')`.execute(trx);
      }),
    );
    await exited;
    expect(ms).toBeGreaterThanOrEqual(200);
    // SQLite's busy handler would sleep inside the call: no timer could fire until the lock was free.
    expect(ticks).toBeGreaterThanOrEqual(10);
    const rows = await sql<{ body: string }>`select body from notes order by id`.execute(database.kysely);
    expect(rows.rows.map((row) => row.body)).toEqual(['held', 'served']);
  });

  it('keeps the busy timeout for statements outside transactions', async () => {
    const { database, file } = await servingDatabase();
    const { exited } = await holdWriteLock(file, 200);
    await sql`insert into notes (body) values ('autocommit')`.execute(database.kysely);
    await exited;
    const rows = await sql<{ body: string }>`select body from notes order by id`.execute(database.kysely);
    expect(rows.rows.map((row) => row.body)).toEqual(['held', 'autocommit']);
  });

  it('tries again only what SQLite refused before doing anything', () => {
    expect(isLockBusy({ code: 'SQLITE_BUSY' })).toBe(true);
    expect(isLockBusy({ code: 'SQLITE_BUSY_RECOVERY' })).toBe(true);
    // Mid-transaction, a stale snapshot needs a rollback: trying the statement again cannot help.
    expect(isLockBusy({ code: 'SQLITE_BUSY_SNAPSHOT' })).toBe(false);
    expect(isLockBusy({ code: 'SQLITE_CONSTRAINT_UNIQUE' })).toBe(false);
    expect(isLockBusy(null)).toBe(false);
  });
});
