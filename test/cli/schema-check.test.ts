import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest, migrationsFor, pendingMigrations } from '../../src/db/migrate.js';
import { ensureBuilt } from '../support/built-server.js';
import { laneboard } from './run-cli.js';

/** A database left at an older version: every migration but the newest applied. */
describe('CLI commands on an older schema', () => {
  let dataDir: string;
  const env = () => ({ LANEBOARD_DATA_DIR: dataDir });
  const names = Object.keys(migrationsFor('sqlite')).sort();
  const open = () => openDatabase({ databaseUrl: null, dataDir });

  beforeAll(async () => {
    ensureBuilt();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-old-schema-'));
    const database = open();
    try {
      await migrateToLatest(database, names[names.length - 2]);
    } finally {
      await database.close();
    }
  });
  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const pending = async () => {
    const database = open();
    try {
      return await pendingMigrations(database);
    } finally {
      await database.close();
    }
  };

  it('keys list says to run laneboard migrate, exits 1, and leaves the schema as it was', async () => {
    expect(await pending()).toEqual([names[names.length - 1]]);
    const result = await laneboard(['keys', 'list'], env());
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^laneboard: .*run `laneboard migrate`.*\n$/);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(await pending()).toEqual([names[names.length - 1]]);
  });

  it('migrate applies what is missing; then the other commands work', async () => {
    expect(await laneboard(['migrate'], env())).toEqual({
      code: 0,
      stdout: `Applied: ${names[names.length - 1]}\n`,
      stderr: '',
    });
    expect(await pending()).toEqual([]);
    expect(await laneboard(['keys', 'list'], env())).toMatchObject({ code: 0, stderr: '' });
  });

  it('a database migrated by a newer version is refused by name, by migrate and the other commands', async () => {
    const database = open();
    try {
      await database.kysely
        .insertInto('laneboard_migrations' as never)
        .values({ name: '999-from-the-future', timestamp: new Date().toISOString() } as never)
        .execute();
    } finally {
      await database.close();
    }
    for (const args of [['migrate'], ['keys', 'list']]) {
      const result = await laneboard(args, env());
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr).toBe(
        'laneboard: The database has migrations this version does not know (999-from-the-future): it was migrated by a newer Laneboard. Run that version, or restore a backup taken before the upgrade.\n',
      );
    }
  });
});
