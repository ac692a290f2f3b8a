import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { BACKSTOP_AUTOCHECKPOINT_PAGES, SqliteCheckpointer } from '../../src/db/sqlite-checkpointer.js';
import { PROJECT_ROOT, runCommand } from '../cli/run-cli.js';
import { waitUntil } from '../support/wait.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A WAL database whose own connection never checkpoints, with `rows` rows of 1 KB written. */
function walDatabase(rows: number) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-checkpoint-'));
  dirs.push(dir);
  const file = path.join(dir, 'db.sqlite');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
  db.exec('create table notes (id integer primary key, body text)');
  const insert = db.prepare('insert into notes (body) values (?)');
  const write = (count: number) => {
    for (let i = 0; i < count; i++) insert.run('x'.repeat(1024));
  };
  write(rows);
  return { file, db, write };
}

describe('background SQLite checkpoints', () => {
  it('copies the log into the database file from its own connection', async () => {
    const { file, db, write } = walDatabase(200);
    const errors: Error[] = [];
    const checkpointer = new SqliteCheckpointer(file, (e) => errors.push(e), {
      thresholdBytes: 64 * 1024,
      intervalMs: 60_000,
    });
    const before = fs.statSync(file).size;
    const result = await checkpointer.checkpointIfGrown();
    expect(result).toMatchObject({ ok: true });
    expect(result?.checkpointed).toBe(result?.log);
    expect(fs.statSync(file).size).toBeGreaterThan(before + 200 * 1024);
    // With the whole log copied, the next write starts the log again instead of growing it.
    const walSize = fs.statSync(`${file}-wal`).size;
    write(10);
    expect(fs.statSync(`${file}-wal`).size).toBe(walSize);
    expect(db.prepare('select count(*) as n from notes').get()).toEqual({ n: 210 });
    await checkpointer.close();
    db.close();
    expect(errors).toEqual([]);
  });

  // Under steady writes a PASSIVE checkpoint never leaves the log fully copied when the next writer
  // starts, so without the RESTART the log only grows (to the serving connection's backstop).
  it.each([
    { restartFrames: 200, restarts: true },
    { restartFrames: 1e9, restarts: false },
  ])(
    'with writes going on, restarts the log once it has $restartFrames frames: $restarts',
    async ({ restartFrames, restarts }) => {
      const { file, db, write } = walDatabase(1000);
      const checkpointer = new SqliteCheckpointer(file, () => {}, { intervalMs: 60_000, restartFrames });
      let writing = true;
      const writer = (async () => {
        while (writing) {
          write(1);
          await new Promise((resolve) => setImmediate(resolve));
        }
      })();
      // A RESTART gives up after 100 ms when writers keep it waiting (as on a busy machine) and the next
      // round tries again: the rounds are run here until one restarts, as the timer would run them.
      const result = restarts
        ? await waitUntil('a checkpoint that restarts the log', async () => {
            const round = await checkpointer.checkpoint();
            return round.ok && !round.restarted ? undefined : round;
          })
        : await checkpointer.checkpoint();
      writing = false;
      await writer;
      expect(result).toMatchObject({ ok: true, restarted: restarts });
      write(1);
      // Frames in the log now: counted by a checkpoint of the test's own connection.
      const [{ log }] = db.pragma('wal_checkpoint(PASSIVE)') as [{ log: number }];
      if (restarts) expect(log).toBeLessThan(100);
      else expect(log).toBeGreaterThan(1000);
      await checkpointer.close();
      db.close();
    },
  );

  it('does nothing while the log is below the threshold', async () => {
    const { file, db } = walDatabase(5);
    const checkpointer = new SqliteCheckpointer(file, () => {}, { thresholdBytes: 1024 * 1024 });
    expect(await checkpointer.checkpointIfGrown()).toBeNull();
    await checkpointer.close();
    db.close();
  });

  it('checkpoints on its own once the log grows, and stops when closed', async () => {
    const { file, db, write } = walDatabase(0);
    const checkpointer = new SqliteCheckpointer(file, () => {}, {
      thresholdBytes: 32 * 1024,
      intervalMs: 10,
    });
    const before = fs.statSync(file).size;
    write(100);
    await vi.waitFor(() => expect(fs.statSync(file).size).toBeGreaterThan(before + 50 * 1024), {
      timeout: 60_000,
    });
    await checkpointer.close();
    const after = fs.statSync(file).size;
    write(300);
    // Grown past the threshold, yet a closed checkpointer (what its timer would call) does nothing.
    expect(await checkpointer.checkpointIfGrown()).toBeNull();
    expect(fs.statSync(file).size).toBe(after);
    db.close();
  });

  it('reports a database it cannot open, and leaves the work to the backstop', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-checkpoint-'));
    dirs.push(dir);
    const errors: Error[] = [];
    const checkpointer = new SqliteCheckpointer(path.join(dir, 'missing.sqlite'), (e) => errors.push(e));
    const result = await checkpointer.checkpoint();
    expect(result.ok).toBe(false);
    expect(errors.length).toBeGreaterThan(0);
    await checkpointer.close();
  });

  it('runs for every file database: the serving connection leaves checkpoints to it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-checkpoint-'));
    dirs.push(dir);
    const database = openDatabase({ databaseUrl: null, dataDir: dir });
    const file = path.join(dir, 'laneboard.sqlite');
    const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(
      database.kysely,
    );
    expect(rows[0]?.wal_autocheckpoint).toBe(BACKSTOP_AUTOCHECKPOINT_PAGES);
    await sql`create table notes (id integer primary key, body text)`.execute(database.kysely);
    // 6 MB in small transactions: past the worker's 4 MB threshold, far below the backstop's 64 MB.
    for (let i = 0; i < 60; i++) {
      await database.kysely.transaction().execute(async (trx) => {
        for (let j = 0; j < 100; j++)
          await sql`insert into notes (body) values (${'y'.repeat(1000)})`.execute(trx);
      });
    }
    await vi.waitFor(() => expect(fs.statSync(file).size).toBeGreaterThan(5 * 1024 * 1024), {
      timeout: 60_000,
      interval: 50,
    });
    await database.close();
  });

  it('keeps a process with nothing else to do alive through a checkpoint and its close', async () => {
    const { file, db } = walDatabase(200);
    db.close();
    // A module awaiting only the checkpointer, as a CLI command's last steps do: an idle worker must
    // not keep a process alive, but one at work or closing must, or the process ends mid-way.
    const script = `
      import { SqliteCheckpointer } from ${JSON.stringify(pathToFileURL(path.join(PROJECT_ROOT, 'dist/db/sqlite-checkpointer.js')).href)};
      const checkpointer = new SqliteCheckpointer(${JSON.stringify(file)}, (e) => console.error(e.message), { intervalMs: 60000 });
      const result = await checkpointer.checkpoint();
      await checkpointer.close();
      console.log(JSON.stringify(result));`;
    const scriptFile = path.join(path.dirname(file), 'checkpoint-and-close.mjs');
    fs.writeFileSync(scriptFile, script);
    const run = await runCommand(process.execPath, [scriptFile], {});
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true });
  });
});
