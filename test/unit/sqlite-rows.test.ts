import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { sqliteRowReader } from '../../src/db/sqlite-rows.js';

describe('sqliteRowReader', () => {
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

  it('answers the objects better-sqlite3 would, for all and get', () => {
    const { db } = open();
    const text = 'select id, n, label, n * 2 as twice from t where n >= ? order by id';
    const reader = sqliteRowReader(db, text);
    expect(reader?.all([1])).toEqual(db.prepare(text).all(1));
    expect(reader?.get([2])).toEqual({ id: 'b', n: 2, label: null, twice: 4 });
    expect(reader?.get([3])).toBeUndefined();
    // The same reader again, not a new statement.
    expect(sqliteRowReader(db, text)).toBe(reader);
    db.close();
  });

  it('keeps names right for select * after another connection adds a column', () => {
    const { file, db } = open();
    const reader = sqliteRowReader(db, 'select * from t where id = ?');
    expect(reader?.get(['a'])).toEqual({ id: 'a', n: 1, label: 'one' });
    const other = new SqliteDatabase(file);
    other.exec("alter table t add column extra text not null default 'x'");
    other.close();
    expect(reader?.get(['a'])).toEqual({ id: 'a', n: 1, label: 'one', extra: 'x' });
    db.close();
  });

  it('has nothing for a statement that returns no rows', () => {
    const { db } = open();
    expect(sqliteRowReader(db, "insert into t values ('c', 3, null)")).toBeUndefined();
    expect(db.prepare('select count(*) as c from t').get()).toEqual({ c: 2 });
    db.close();
  });
});
