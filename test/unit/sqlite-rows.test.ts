import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { readRow, readRows } from '../../src/db/sqlite-rows.js';

describe('SQLite rows read as arrays', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  function open(): { file: string; db: SqliteDatabase.Database } {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-rows-'));
    dirs.push(dir);
    const file = path.join(dir, 'rows.sqlite');
    const db = new SqliteDatabase(file);
    db.exec(`create table t (id text primary key, n integer, label text);
      insert into t values ('a', 1, 'one'), ('b', 2, null)`);
    return { file, db };
  }

  it('answers the objects better-sqlite3 would, and leaves the statement answering objects', () => {
    const { db } = open();
    const statement = db.prepare(
      'select id, n, label, n * 2 as twice, n as id from t where n >= ? order by n',
    );
    const expected = statement.all(1);
    expect(readRows(statement, [1])).toEqual(expected);
    expect(readRow(statement, [2])).toEqual({ id: 2, n: 2, label: null, twice: 4 });
    expect(readRow(statement, [3])).toBeUndefined();
    // Still in object mode for the statement's other users.
    expect(statement.get(1)).toEqual(expected[0]);
    db.close();
  });

  it('keeps names right for select * after another connection adds a column', () => {
    const { file, db } = open();
    const statement = db.prepare('select * from t where id = ?');
    expect(readRow(statement, ['a'])).toEqual({ id: 'a', n: 1, label: 'one' });
    const other = new SqliteDatabase(file);
    other.exec("alter table t add column extra text not null default 'x'");
    other.close();
    expect(readRow(statement, ['a'])).toEqual({ id: 'a', n: 1, label: 'one', extra: 'x' });
    expect(readRows(statement, ['b'])).toEqual([{ id: 'b', n: 2, label: null, extra: 'x' }]);
    db.close();
  });

  it('turns the raw mode off again when the read fails', () => {
    const { db } = open();
    const statement = db.prepare('select id, n from t where n = ?');
    expect(() => readRows(statement, [1, 2])).toThrow();
    expect(statement.get(1)).toEqual({ id: 'a', n: 1 });
    db.close();
  });
});
