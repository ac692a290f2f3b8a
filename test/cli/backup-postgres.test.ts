import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOnPath } from '../../src/backup/pg-tools.js';
import { stopServer } from '../support/built-server.js';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../support/database.js';
import { apiClient, boardUnderLoad, expectPingSigned } from './backup-api.js';
import { useBackupSuite } from './backup-fixtures.js';
import { laneboard, PROJECT_ROOT } from './run-cli.js';

const MASTER_KEY = 'backup-test-master-key-0123456789abcdef';
const HAS_PG_TOOLS = findOnPath('pg_dump') !== null && findOnPath('pg_restore') !== null;

/** A URL on `database` of the test server whose connections use `schema` (spaces as %20, as libpq reads). */
function urlFor(database: string, schema: string): string {
  const url = new URL(TEST_DATABASE_URL as string);
  url.pathname = `/${database}`;
  url.search = `options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return url.toString();
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL as string });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function countTasks(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: string }>('select count(*) as count from tasks');
    return Number(rows[0]?.count);
  } finally {
    await client.end();
  }
}

describe.skipIf(TEST_DATABASE_URL === null)('laneboard backup and restore (PostgreSQL)', () => {
  let source: TestDatabase;
  let schema: string;
  const databases: string[] = [];
  /** A new, empty database on the test server, dropped after the suite. */
  const freshDatabase = async () => {
    const name = `lbr_${randomBytes(6).toString('hex')}`;
    await admin((client) => client.query(`create database ${name}`));
    databases.push(name);
    return name;
  };

  beforeAll(async () => {
    source = await createTestDatabase('postgres');
    schema = new URL(source.databaseUrl as string).searchParams.get('options')?.split('=')[1] as string;
    expect(schema).toMatch(/^lbt_/);
  });
  afterAll(async () => {
    await source?.drop();
    for (const name of databases) await admin((client) => client.query(`drop database ${name} with (force)`));
  });
  // After the hooks above, so that its servers are stopped before the databases are dropped.
  const { scratch, receiver, start } = useBackupSuite('laneboard-pg-backup-', {
    LANEBOARD_SECRET_KEY: MASTER_KEY,
  });

  it.skipIf(!HAS_PG_TOOLS)(
    'pg_dump under a write load, pg_restore into a fresh database: every acknowledged row, keys reveal, secrets sign',
    async () => {
      const env = {
        DATABASE_URL: urlFor(new URL(TEST_DATABASE_URL as string).pathname.slice(1), schema),
        LANEBOARD_SECRET_KEY: MASTER_KEY,
      };
      const created = await laneboard(['keys', 'create', '--name', 'pg', '--all-boards', '--json'], env);
      expect(created.code, created.stderr).toBe(0);
      const key = JSON.parse(created.stdout) as { id: string; key: string };
      const server = await start({ DATABASE_URL: env.DATABASE_URL });
      const call = apiClient(server.baseUrl, key.key);
      const { boardId, hook, writer } = await boardUnderLoad(call, 'PG', receiver.url('/pg'));
      const acknowledgedBefore = [...writer.acknowledged];
      const backupDir = scratch('pg-backup');
      const backup = await laneboard(['backup', backupDir], env);
      await writer.stop();
      expect(backup.code, backup.stderr).toBe(0);
      expect(fs.readdirSync(backupDir).sort()).toEqual(['laneboard.pgdump', 'manifest.json', 'secret.key']);
      const manifest = JSON.parse(fs.readFileSync(path.join(backupDir, 'manifest.json'), 'utf8'));
      expect(manifest).toMatchObject({ database: { dialect: 'postgres', schema }, pendingFiles: [] });
      expect(Object.keys(manifest.files).sort()).toEqual(['laneboard.pgdump', 'secret.key']);
      expect(fs.statSync(path.join(backupDir, 'secret.key')).mode & 0o777).toBe(0o600);

      // The source's schema is not empty; another master key would leave the secrets sealed.
      const intoSource = await laneboard(['restore', backupDir], env);
      expect(intoSource.code).toBe(1);
      expect(intoSource.stderr).toContain(`schema ${schema} of the database DATABASE_URL names is not empty`);
      const target = urlFor(await freshDatabase(), schema);
      const otherKey = await laneboard(['restore', backupDir], {
        DATABASE_URL: target,
        LANEBOARD_SECRET_KEY: 'another-master-key-0123456789abcdef-xyz',
      });
      expect(otherKey.code).toBe(1);
      expect(otherKey.stderr).toContain('LANEBOARD_SECRET_KEY is not the master key');

      const restored = await laneboard(['restore', backupDir], {
        DATABASE_URL: target,
        LANEBOARD_SECRET_KEY: MASTER_KEY,
      });
      expect(restored.code, restored.stderr).toBe(0);
      expect(restored.stdout).toContain(`into schema ${schema}`);

      const restoredEnv = { DATABASE_URL: target, LANEBOARD_SECRET_KEY: MASTER_KEY };
      expect((await laneboard(['keys', 'reveal', key.id], restoredEnv)).stdout).toBe(`${key.key}\n`);
      const second = await start({ DATABASE_URL: target });
      const restoredCall = apiClient(second.baseUrl, key.key);
      const tasks = await restoredCall('GET', `/boards/${boardId}/tasks`);
      const ids = new Set((tasks.data as unknown as Array<{ id: string }>).map((t) => t.id));
      expect(acknowledgedBefore.filter((id) => !ids.has(id))).toEqual([]);
      await expectPingSigned(restoredCall, receiver, '/pg', hook);
      await stopServer(second, 'SIGTERM');
      await stopServer(server, 'SIGTERM');
    },
    300_000,
  );

  it('without pg_dump and pg_restore on PATH, prints the commands that complete the backup and the restore', async () => {
    const noTools = scratch('empty-path');
    fs.mkdirSync(noTools, { recursive: true });
    const env = {
      DATABASE_URL: urlFor(new URL(TEST_DATABASE_URL as string).pathname.slice(1), schema),
      LANEBOARD_SECRET_KEY: MASTER_KEY,
      PATH: noTools,
    };
    const backupDir = scratch('printed-backup');
    const backup = await laneboard(['backup', backupDir], env);
    expect(backup.code, backup.stderr).toBe(0);
    expect(fs.readdirSync(backupDir).sort()).toEqual(['manifest.json', 'secret.key']);
    const dumpCommand = backup.stdout
      .split('\n')
      .find((line) => line.startsWith('  pg_dump '))
      ?.trim();
    expect(dumpCommand).toBe(
      `pg_dump --format=custom --no-owner --no-privileges --schema=${schema} --file=${backupDir}/laneboard.pgdump --dbname="$DATABASE_URL"`,
    );
    if (!HAS_PG_TOOLS) return; // the printed commands cannot be run here

    // Run exactly as printed, by a shell that has the tools and DATABASE_URL.
    const shell = (command: string, databaseUrl: string) =>
      execFileSync('/bin/sh', ['-c', command], {
        cwd: PROJECT_ROOT,
        env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl },
        stdio: 'pipe',
      });
    shell(dumpCommand as string, env.DATABASE_URL);
    const target = urlFor(await freshDatabase(), schema);
    const restore = await laneboard(['restore', backupDir], { ...env, DATABASE_URL: target });
    expect(restore.code, restore.stderr).toBe(0);
    const restoreCommand = restore.stdout
      .split('\n')
      .find((line) => line.startsWith('  list='))
      ?.trim();
    expect(restoreCommand).toContain('pg_restore');
    shell(restoreCommand as string, target);
    expect(await countTasks(target)).toBe(await countTasks(env.DATABASE_URL));
    expect((await laneboard(['keys', 'list'], { ...env, DATABASE_URL: target })).code).toBe(0);
  }, 300_000);
});
