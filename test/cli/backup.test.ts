import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stopServer } from '../support/built-server.js';
import { apiClient, boardUnderLoad, expectPingSigned } from './backup-api.js';
import { useBackupSuite } from './backup-fixtures.js';
import { type CliResult, laneboard, runCommand } from './run-cli.js';

interface Manifest {
  schemaVersion: string;
  laneboardVersion: string;
  createdAt: string;
  database: { dialect: string };
  files: Record<string, string>;
  pendingFiles: string[];
}

function expectRefusal(result: CliResult, mentions: string) {
  expect(result.code, result.stderr).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr).toContain(mentions);
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
}

/** Every file under `dir` with its size and modification time: to show that nothing was written. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of fs.readdirSync(dir, { recursive: true }) as string[]) {
    const stat = fs.statSync(path.join(dir, name));
    out[name] = `${stat.size}:${stat.mtimeMs}`;
  }
  return out;
}

const readManifest = (dir: string) =>
  JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;

describe('laneboard backup and restore (embedded SQLite)', () => {
  const { scratch, receiver, start } = useBackupSuite('laneboard-backup-');

  it('a backup taken under a write load restores every acknowledged row; its keys reveal and its webhook secrets sign', async () => {
    const source = scratch('source');
    const env = { LANEBOARD_DATA_DIR: source };
    expect((await laneboard(['migrate'], env)).code).toBe(0);
    const created = await laneboard(['keys', 'create', '--name', 'backup', '--all-boards', '--json'], env);
    expect(created.code, created.stderr).toBe(0);
    const key = JSON.parse(created.stdout) as { id: string; key: string };

    const server = await start({ LANEBOARD_DATA_DIR: source });
    expect(fs.readFileSync(path.join(source, 'laneboard.pid'), 'utf8').trim()).toBe(String(server.child.pid));
    const call = apiClient(server.baseUrl, key.key);
    const { boardId, hook, writer } = await boardUnderLoad(call, 'Backed up', receiver.url('/restored'));
    const acknowledgedBefore = [...writer.acknowledged];
    const backupDir = scratch('backup');
    const backup = await laneboard(['backup', backupDir], env);
    const duringBackup = writer.acknowledged.length - acknowledgedBefore.length;
    await writer.stop();
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stderr).toBe('');
    expect(backup.stdout).toContain(`to ${backupDir}`);
    // The server went on acknowledging writes while the backup ran.
    expect(duringBackup).toBeGreaterThan(0);

    const manifest = readManifest(backupDir);
    expect(manifest).toMatchObject({ database: { dialect: 'sqlite' }, pendingFiles: [] });
    expect(manifest.schemaVersion).toMatch(/^\d{3}-/);
    expect(manifest.laneboardVersion).toMatch(/^\d+\.\d+\.\d+/);
    expect(Date.parse(manifest.createdAt)).not.toBeNaN();
    expect(Object.keys(manifest.files).sort()).toEqual(['laneboard.sqlite', 'secret.key']);
    // One self-contained database file: no journal or log beside it.
    expect(fs.readdirSync(backupDir).sort()).toEqual(['laneboard.sqlite', 'manifest.json', 'secret.key']);
    expect(fs.statSync(path.join(backupDir, 'secret.key')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(backupDir).mode & 0o777).toBe(0o700);
    expect(fs.readFileSync(path.join(backupDir, 'secret.key'), 'utf8')).toBe(
      fs.readFileSync(path.join(source, 'secret.key'), 'utf8'),
    );

    // A second backup into the same directory is refused and writes nothing.
    const before = snapshot(backupDir);
    expectRefusal(await laneboard(['backup', backupDir], env), `${backupDir} is not empty`);
    expect(snapshot(backupDir)).toEqual(before);

    // The running server holds its data directory.
    expectRefusal(await laneboard(['restore', backupDir], env), 'held by a running Laneboard server');

    await stopServer(server, 'SIGTERM');
    expect(fs.existsSync(path.join(source, 'laneboard.pid'))).toBe(false);
    // Stopped, the directory is free but not empty.
    const sourceBefore = snapshot(source);
    expectRefusal(await laneboard(['restore', backupDir], env), `${source} is not empty`);
    expect(snapshot(source)).toEqual(sourceBefore);

    const target = scratch('restored');
    const restoredEnv = { LANEBOARD_DATA_DIR: target };
    const restored = await laneboard(['restore', backupDir], restoredEnv);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toContain(`into ${target}`);
    expect(fs.readdirSync(target).sort()).toEqual(['laneboard.sqlite', 'secret.key']);
    expect(fs.statSync(path.join(target, 'secret.key')).mode & 0o777).toBe(0o600);

    // The API key still reveals.
    expect(await laneboard(['keys', 'reveal', key.id], restoredEnv)).toEqual({
      code: 0,
      stdout: `${key.key}\n`,
      stderr: '',
    });
    const second = await start({ LANEBOARD_DATA_DIR: target });
    const restoredCall = apiClient(second.baseUrl, key.key);
    const tasks = await restoredCall('GET', `/boards/${boardId}/tasks`);
    expect(tasks.status).toBe(200);
    const rows = tasks.data as unknown as Array<{ id: string; position: number }>;
    const ids = new Set(rows.map((t) => t.id));
    expect(acknowledgedBefore.filter((id) => !ids.has(id))).toEqual([]);
    // One consistent moment: the lane's positions run 0..n-1 without gaps, every task is a written one.
    expect(rows.map((t) => t.position)).toEqual(rows.map((_, i) => i));
    expect(rows.filter((t) => !writer.acknowledged.includes(t.id))).toEqual([]);

    // The webhook secret still signs.
    await expectPingSigned(restoredCall, receiver, '/restored', hook);
    await stopServer(second, 'SIGTERM');
  }, 300_000);

  it('refuses a tampered file, a missing or corrupt manifest, a newer schema and another master key, writing nothing; a stale laneboard.pid holds nothing', async () => {
    const source = scratch('small');
    const env = { LANEBOARD_DATA_DIR: source };
    expect((await laneboard(['migrate'], env)).code).toBe(0);
    const backupDir = scratch('small-backup');
    expect((await laneboard(['backup', backupDir], env)).code).toBe(0);
    const target = scratch('never-written');
    const restoreFrom = (dir: string) => laneboard(['restore', dir], { LANEBOARD_DATA_DIR: target });
    const variant = (name: string, change: (dir: string) => void) => {
      const dir = scratch(name);
      fs.cpSync(backupDir, dir, { recursive: true });
      change(dir);
      return dir;
    };

    const tampered = variant('tampered', (dir) => {
      const file = path.join(dir, 'laneboard.sqlite');
      const bytes = fs.readFileSync(file);
      bytes[bytes.length - 100] = (bytes[bytes.length - 100] ?? 0) ^ 0xff;
      fs.writeFileSync(file, bytes);
    });
    expectRefusal(await restoreFrom(tampered), 'checksum mismatch');
    const otherKey = variant('other-key', (dir) =>
      fs.writeFileSync(path.join(dir, 'secret.key'), 'another-master-key-0123456789abcdef0123\n'),
    );
    expectRefusal(await restoreFrom(otherKey), 'checksum mismatch');
    const noManifest = variant('no-manifest', (dir) => fs.rmSync(path.join(dir, 'manifest.json')));
    expectRefusal(await restoreFrom(noManifest), 'manifest.json does not exist');
    const corrupt = variant('corrupt', (dir) =>
      fs.writeFileSync(path.join(dir, 'manifest.json'), '{"format":'),
    );
    expectRefusal(await restoreFrom(corrupt), 'is corrupt');
    const newer = variant('newer', (dir) => {
      const manifest = readManifest(dir);
      fs.writeFileSync(
        path.join(dir, 'manifest.json'),
        JSON.stringify({ ...manifest, schemaVersion: '999-future' }),
      );
    });
    expectRefusal(await restoreFrom(newer), 'newer Laneboard');
    expect(fs.existsSync(target)).toBe(false);

    // A configured master key that is not the backup's would leave every secret sealed.
    expectRefusal(
      await laneboard(['restore', backupDir], {
        LANEBOARD_DATA_DIR: target,
        LANEBOARD_SECRET_KEY: 'not-the-backups-master-key-0123456789',
      }),
      'LANEBOARD_SECRET_KEY is not the master key',
    );
    expect(fs.existsSync(target)).toBe(false);

    // A process id file left by a killed server (its process has ended) holds nothing and is no content.
    const ended = await runCommand(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {});
    fs.mkdirSync(target);
    fs.writeFileSync(path.join(target, 'laneboard.pid'), `${ended.stdout}\n`);
    const restored = await restoreFrom(backupDir);
    expect(restored.code, restored.stderr).toBe(0);
    expect(fs.readdirSync(target).sort()).toEqual(['laneboard.sqlite', 'secret.key']);

    // A backup that fails part-way leaves no directory behind.
    const broken = scratch('broken');
    fs.mkdirSync(broken);
    fs.writeFileSync(path.join(broken, 'laneboard.sqlite'), 'not a database, not a database, not a database');
    fs.copyFileSync(path.join(source, 'secret.key'), path.join(broken, 'secret.key'));
    const failed = await laneboard(['backup', scratch('from-broken')], {
      LANEBOARD_DATA_DIR: broken,
    });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('not a database');
    expect(fs.existsSync(scratch('from-broken'))).toBe(false);
    fs.rmSync(path.join(broken, 'secret.key'));
    expectRefusal(
      await laneboard(['backup', scratch('no-key')], { LANEBOARD_DATA_DIR: broken }),
      'there is no master key to back up',
    );
    expect(fs.existsSync(scratch('no-key'))).toBe(false);

    // A file where the directory should be.
    const file = scratch('a-file');
    fs.writeFileSync(file, 'x');
    expectRefusal(await laneboard(['backup', file], env), `${file} is not a directory`);
  }, 300_000);

  it('bad arguments are usage errors (exit 2)', async () => {
    for (const args of [['backup'], ['restore'], ['backup', 'a', 'b'], ['restore', '--bogus', 'x']]) {
      const result = await laneboard(args, {});
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
  });
});
