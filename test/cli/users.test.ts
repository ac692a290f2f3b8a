import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../src/runtime.js';
import { testConfig } from '../support/runtime.js';
import { laneboard } from './run-cli.js';

const PASSWORD = 'operator chosen passphrase';

describe('laneboard users (embedded SQLite)', () => {
  let dataDir: string;
  let env: Record<string, string>;
  const cli = (...args: string[]) => laneboard(args, env);

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-users-'));
    env = { LANEBOARD_DATA_DIR: dataDir, LANEBOARD_PASSWORD: PASSWORD };
    expect((await cli('migrate')).code).toBe(0);
  }, 60_000);
  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  // Eight CLI processes in turn, each opening the runtime and some hashing a password: on a busy 2-core
  // machine that took over 90 s, so the limit is only a net for a hung run.
  it('creates, lists, changes roles, resets passwords and deactivates people', {
    timeout: 300_000,
  }, async () => {
    const created = await cli(
      'users',
      'create',
      '--email',
      'Olga@example.com',
      '--name',
      'Olga',
      '--role',
      'owner',
      '--json',
    );
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const owner = JSON.parse(created.stdout) as { id: string; role: string; email: string };
    expect(owner).toMatchObject({
      id: expect.stringMatching(/^usr_/),
      role: 'owner',
      email: 'Olga@example.com',
    });

    // The password from one line on stdin when LANEBOARD_PASSWORD is not set.
    const { LANEBOARD_PASSWORD: _unused, ...noPasswordEnv } = env;
    const piped = await laneboard(
      ['users', 'create', '--email', 'mo@example.com', '--name', 'Mo', '--role', 'member', '--json'],
      noPasswordEnv,
      'a piped-in passphrase\n',
    );
    expect(piped.code).toBe(0);
    const member = JSON.parse(piped.stdout) as { id: string };

    const list = await cli('users', 'list');
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(`${owner.id}\tOlga@example.com\tOlga\towner\tactive`);
    expect(list.stdout).toContain(`${member.id}\tmo@example.com\tMo\tmember\tactive`);

    expect((await cli('users', 'set-role', member.id, 'admin')).stdout).toBe(`${member.id} is now admin.\n`);
    const lastOwner = await cli('users', 'deactivate', owner.id);
    expect(lastOwner.code).toBe(1);
    expect(lastOwner.stderr).toContain('last active owner');
    const demote = await cli('users', 'set-role', owner.id, 'member');
    expect(demote.code).toBe(1);

    expect((await cli('users', 'reset-password', member.id)).code).toBe(0);
    const deactivated = await cli('users', 'deactivate', member.id, '--json');
    expect(JSON.parse(deactivated.stdout)).toMatchObject({ id: member.id, active: false });

    // The passwords set from the CLI are the ones sign-in accepts.
    const runtime: Runtime = await createRuntime(testConfig({ dataDir }), { log: pino({ level: 'silent' }) });
    try {
      const signedIn = await runtime.services.sessions.signIn('olga@example.com', PASSWORD, null);
      expect(signedIn.user.id).toBe(owner.id);
      await expect(runtime.services.sessions.signIn('mo@example.com', PASSWORD, null)).rejects.toMatchObject({
        code: 'invalid_credentials',
      });
    } finally {
      await runtime.close();
    }
  });

  it('bad arguments exit 2 with one line; a missing id exits 1', async () => {
    const badRole = await cli('users', 'create', '--email', 'x@example.com', '--name', 'X', '--role', 'boss');
    expect(badRole.code).toBe(2);
    expect(badRole.stderr.trimEnd().split('\n')).toHaveLength(1);
    const weak = await laneboard(
      ['users', 'create', '--email', 'x@example.com', '--name', 'X', '--role', 'member'],
      {
        ...env,
        LANEBOARD_PASSWORD: 'short',
      },
    );
    expect(weak.code).toBe(2);
    expect(weak.stderr).toContain('`password`');
    const missing = await cli('users', 'deactivate', 'usr_missing');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('laneboard: Person not found.\n');
    expect((await cli('users', 'set-role', 'usr_missing', 'root')).code).toBe(2);
  }, 90_000);
});
