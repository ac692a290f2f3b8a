import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { LockReleases } from '../../src/db/sqlite-lock-wait.js';
import { openSideConnection } from '../../src/db/sqlite-side-connection.js';
import { holdWriteLock } from '../support/sqlite-write-lock.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function walFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-side-'));
  dirs.push(dir);
  const file = path.join(dir, 'db.sqlite');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec('create table notes (id integer primary key, body text)');
  db.close();
  return file;
}

describe('the dispatcher thread’s SQLite connection', () => {
  it('writes as soon as another connection lets the write lock go (no growing back-off)', async () => {
    const file = walFile();
    const side = openSideConnection(file, new LockReleases());
    try {
      const { exited } = await holdWriteLock(file, 150);
      const started = performance.now();
      await side.kysely.transaction().execute(async (trx) => {
        await sql`insert into notes (body) values ('side')`.execute(trx);
      });
      const waited = performance.now() - started;
      await exited;
      // Waited for the lock, then got it within a few polls rather than SQLite's 25–100 ms sleeps.
      expect(waited).toBeGreaterThanOrEqual(100);
      expect(waited).toBeLessThan(1000);
      const rows = await sql<{ body: string }>`select body from notes order by id`.execute(side.kysely);
      expect(rows.rows.map((r) => r.body)).toEqual(['held', 'side']);
    } finally {
      await side.close();
    }
  });

  it('refuses a file that does not exist (the server creates and migrates it)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-side-'));
    dirs.push(dir);
    expect(() => openSideConnection(path.join(dir, 'missing.sqlite'), new LockReleases())).toThrow();
  });

  it('counts its commits and rollbacks as releases, and the serving connection waits for the next one', async () => {
    const file = walFile();
    const serving = openDatabase({ databaseUrl: null, dataDir: path.dirname(file), sqliteFile: file });
    const shared = serving.sqliteLockReleases;
    if (!shared) throw new Error('a SQLite database shares its lock releases');
    const releases = new LockReleases(shared);
    const side = openSideConnection(file, new LockReleases(shared));
    try {
      const before = releases.current();
      let letGo: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        letGo = resolve;
      });
      let sideHasLock: () => void = () => {};
      const sideWrote = new Promise<void>((resolve) => {
        sideHasLock = resolve;
      });
      const sideDone = side.kysely.transaction().execute(async (trx) => {
        await sql`insert into notes (body) values ('side')`.execute(trx);
        sideHasLock();
        await held;
      });
      await sideWrote;
      const servingDone = serving.kysely.transaction().execute(async (trx) => {
        await sql`insert into notes (body) values ('serving')`.execute(trx);
      });
      // The serving connection waits (without blocking this thread) until the side lets go.
      letGo();
      await Promise.all([sideDone, servingDone]);
      expect(releases.current()).toBe(before + 2);
      await expect(
        side.kysely.transaction().execute(async (trx) => {
          await sql`insert into notes (body) values ('rolled back')`.execute(trx);
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      expect(releases.current()).toBe(before + 3);
      const rows = await sql<{ body: string }>`select body from notes order by id`.execute(serving.kysely);
      expect(rows.rows.map((r) => r.body)).toEqual(['side', 'serving']);
    } finally {
      await side.close();
      await serving.close();
    }
  });
});
