import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { holdWriteLock } from '../support/sqlite-write-lock.js';
import { useCliDataDir } from './cli-fixtures.js';

/*
 * A CLI command that finds the SQLite write lock taken (by a running server's webhook dispatcher or
 * checkpointer) waits for it. Its wait is Atomics.waitAsync, which does not keep Node's event loop
 * alive: with nothing else pending, the process used to end mid-wait, exit code 0, nothing done.
 */
describe('a CLI command while another process holds the SQLite write lock', () => {
  const { dir, cli } = useCliDataDir('laneboard-cli-lock-');

  it('waits for the lock, then does its work and says so', async () => {
    const file = path.join(dir.dataDir, 'laneboard.sqlite');
    await sql`create table if not exists notes (id integer primary key, body text)`.execute(
      dir.runtime.database.kysely,
    );
    const { exited } = await holdWriteLock(file, 1500);
    const created = await cli('keys', 'create', '--name', 'Waited', '--all-boards', '--json');
    await exited;
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ name: 'Waited', key: expect.stringMatching(/^ak_/) });
    const listed = await cli('keys', 'list', '--json');
    expect(JSON.parse(listed.stdout).map((key: { name: string }) => key.name)).toContain('Waited');
  });
});
