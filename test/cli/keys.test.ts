import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../../src/domain/actor.js';
import { TEST_DATABASE_URL } from '../support/database.js';
import { expectOneLineError, onPostgres, useCliDataDir } from './cli-fixtures.js';
import { laneboard, runCommand } from './run-cli.js';

const OPERATOR: Actor = { kind: 'system', origin: 'cli', name: 'CLI' };

interface KeyJson {
  id: string;
  key: string;
  name: string;
  allBoards: boolean;
  grants: Array<{ boardId: string; permission: string }>;
  revokedAt: string | null;
}

describe('laneboard CLI (embedded SQLite)', () => {
  const { dir, cli, api: request } = useCliDataDir('laneboard-cli-');
  const api = (key: string, url: string) => request(key, 'GET', url);

  it('migrate on an empty data dir creates the database (and, like every command, the master key)', () => {
    expect(dir.migrated).toMatchObject({ code: 0, stderr: '' });
    expect(dir.migrated.stdout).toMatch(/^Applied: 001-initial/);
  });

  it('migrate again reports that the database is up to date', async () => {
    expect(await cli('migrate')).toEqual({ code: 0, stdout: 'Database is up to date.\n', stderr: '' });
  });

  it('keys create --all-boards --json prints one JSON object with id and key; reveal prints the same key', async () => {
    const created = await cli('keys', 'create', '--name', 'CI bot', '--all-boards', '--json');
    expect(created.code).toBe(0);
    expect(created.stderr).toBe('');
    expect(created.stdout.trimEnd().split('\n')).toHaveLength(1);
    const key = JSON.parse(created.stdout) as KeyJson;
    expect(key).toMatchObject({ name: 'CI bot', allBoards: true, grants: [], revokedAt: null });
    expect(key.id).toMatch(/^key_/);
    expect(key.key).toMatch(/^ak_[0-9A-Za-z]{43}$/);

    const revealed = await cli('keys', 'reveal', key.id);
    expect(revealed).toEqual({ code: 0, stdout: `${key.key}\n`, stderr: '' });
    expect((await api(key.key, '/boards')).statusCode).toBe(200);
  });

  it('keys create --grant (repeatable), keys grant and keys list', async () => {
    const first = await dir.runtime.services.boards.createBoard(OPERATOR, { name: 'First' });
    const second = await dir.runtime.services.boards.createBoard(OPERATOR, { name: 'Second' });
    const created = await cli(
      'keys',
      'create',
      '--name',
      'Scoped',
      '--grant',
      `${first.id}:read`,
      '--grant',
      `${second.id}:edit`,
      '--json',
    );
    expect(created.code).toBe(0);
    const key = JSON.parse(created.stdout) as KeyJson;
    expect(key.allBoards).toBe(false);
    expect(key.grants).toEqual([
      { boardId: first.id, permission: 'read' },
      { boardId: second.id, permission: 'edit' },
    ]);
    const boards = (await api(key.key, '/boards')).json().data;
    expect(boards).toEqual([
      { id: first.id, name: 'First', permission: 'read' },
      { id: second.id, name: 'Second', permission: 'edit' },
    ]);

    const granted = await cli('keys', 'grant', key.id, `${first.id}:edit`, '--json');
    expect(granted.code).toBe(0);
    expect((JSON.parse(granted.stdout) as KeyJson).grants).toContainEqual({
      boardId: first.id,
      permission: 'edit',
    });
    expect((await api(key.key, '/boards')).json().data[0].permission).toBe('edit');

    const [listed, listedJson] = await Promise.all([cli('keys', 'list'), cli('keys', 'list', '--json')]);
    expect(listed.code).toBe(0);
    const line = listed.stdout.split('\n').find((l) => l.startsWith(key.id));
    expect(line).toContain('Scoped');
    expect(line).toContain(`${first.id}:edit`);
    expect(line).toContain('active');
    // Listing never shows key values.
    expect(listed.stdout).not.toContain('ak_');
    expect(listedJson.stdout).not.toContain('ak_');
    expect((JSON.parse(listedJson.stdout) as KeyJson[]).map((k) => k.id)).toContain(key.id);
  });

  it('keys revoke: the key gets 401 through the API at once, and list shows it revoked', async () => {
    const key = JSON.parse(
      (await cli('keys', 'create', '--name', 'Leaked', '--all-boards', '--json')).stdout,
    );
    expect((await api(key.key, '/boards')).statusCode).toBe(200);

    const revoked = await cli('keys', 'revoke', key.id);
    expect(revoked).toEqual({ code: 0, stdout: `Revoked ${key.id} (Leaked).\n`, stderr: '' });
    const res = await api(key.key, '/boards');
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('invalid_key');

    const listed = await cli('keys', 'list');
    expect(listed.stdout.split('\n').find((l) => l.startsWith(key.id))).toMatch(/revoked/);
  });

  it('bad arguments: one line on stderr, exit code 2', async () => {
    const cases: Array<[string[], string]> = [
      [['keys', 'create', '--all-boards'], '--name'],
      [['keys', 'create', '--name', 'x'], '--all-boards'],
      [['keys', 'create', '--name', 'x', '--all-boards', '--grant', 'brd_a:read'], 'not both'],
      [['keys', 'create', '--name', 'x', '--grant', 'brd_a:write'], 'BOARD_ID:read'],
      [['keys', 'create', '--name', '   ', '--all-boards'], 'name'],
      [['keys', 'create', '--name', 'x', '--all-boards', '--colour', 'red'], "unknown option '--colour'"],
      [['keys', 'frobnicate'], "unknown command 'frobnicate'"],
      [['keys', 'grant', 'key_x', 'brd_a'], 'BOARD_ID:read'],
      [['keys'], 'Usage'],
    ];
    const results = await Promise.all(cases.map(([args]) => cli(...args)));
    results.forEach((result, i) => {
      expectOneLineError(result, 2, (cases[i] as [string[], string])[1]);
    });
  });

  it('an unknown key id: one line on stderr, exit code 1', async () => {
    const results = await Promise.all([
      cli('keys', 'reveal', 'key_doesnotexist'),
      cli('keys', 'revoke', 'key_doesnotexist'),
    ]);
    for (const result of results) {
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe('laneboard: API key key_doesnotexist not found.\n');
    }
  });

  it('a bad configuration stops the command with exit code 1, naming the variable', async () => {
    const result = await laneboard(['keys', 'list'], { ...dir.env, LANEBOARD_DB_POOL_SIZE: 'many' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^laneboard: invalid configuration: LANEBOARD_DB_POOL_SIZE: /);
  });

  // `npx laneboard` from the project root (as the README says) runs node_modules/.bin/laneboard, linked
  // at install: it installs and builds nothing, so calls at once share no npx cache entry (they used to
  // install the checkout into ~/.npm/_npx and run the full build, and broke that entry). npm gets a
  // cache of its own here, so the test can see that nothing lands in it.
  it('8 npx laneboard keys list at once all succeed, installing nothing', { timeout: 240_000 }, async () => {
    const npmCache = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-npx-cache-'));
    try {
      const results = await Promise.all(
        Array.from({ length: 8 }, () =>
          runCommand(
            'npx',
            ['laneboard', 'keys', 'list'],
            { ...dir.env, npm_config_cache: npmCache },
            200_000,
          ),
        ),
      );
      for (const result of results) {
        expect(result.code, result.stderr).toBe(0);
        expect(result.stdout).toContain('CI bot');
      }
      expect(fs.readdirSync(npmCache)).not.toContain('_npx');
    } finally {
      fs.rmSync(npmCache, { recursive: true, force: true });
    }
  });
});

describe.skipIf(TEST_DATABASE_URL === null)('laneboard CLI (PostgreSQL)', () => {
  it('creates and reveals a key in the database DATABASE_URL names, then exits', async () => {
    await onPostgres(async (env, db) => {
      const created = await laneboard(['keys', 'create', '--name', 'pg', '--all-boards', '--json'], env);
      expect(created.code).toBe(0);
      const key = JSON.parse(created.stdout) as KeyJson;
      const stored = await db.database.kysely
        .selectFrom('api_keys')
        .select(['id', 'key_sealed'])
        .executeTakeFirstOrThrow();
      expect(stored.id).toBe(key.id);
      expect(stored.key_sealed).not.toContain(key.key);
      expect(await laneboard(['keys', 'reveal', key.id], env)).toEqual({
        code: 0,
        stdout: `${key.key}\n`,
        stderr: '',
      });
    });
  });
});
