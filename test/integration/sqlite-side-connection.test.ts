import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
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
    const side = openSideConnection(file);
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
    expect(() => openSideConnection(path.join(dir, 'missing.sqlite'))).toThrow();
  });
});
