import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/domain/actor.js';
import { createRuntime } from '../../src/runtime.js';
import { childEnv, PROJECT_ROOT, runCommand } from '../cli/run-cli.js';
import { testConfig } from '../support/runtime.js';
import { waitUntil } from '../support/wait.js';

const MAIN = path.join(PROJECT_ROOT, 'dist/main.js');
const OPERATOR: Actor = { kind: 'system', origin: 'cli', name: 'CLI' };

interface Server {
  child: ChildProcessWithoutNullStreams;
  port: number;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts `node dist/main.js` on a free port and waits for it to say where it listens. */
async function startServer(dataDir: string): Promise<Server> {
  const child = spawn(process.execPath, [MAIN], {
    cwd: PROJECT_ROOT,
    env: childEnv({ LANEBOARD_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' }),
    stdio: 'pipe',
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    // A bound for a server that hangs, not a start-up target: a busy machine (load 20 on 2 cores) took
    // 14 s; the child is ended when it is given up on.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start:\n${output}`));
    }, 120_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  return { child, port, output: () => output, exited };
}

/** Reads from a socket until `done(received)` holds or the socket closes. */
function readUntil(socket: net.Socket, done: (received: string) => boolean): Promise<string> {
  return new Promise((resolve) => {
    let received = '';
    const finish = () => {
      socket.off('data', onData);
      resolve(received);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.toString('utf8');
      if (done(received)) finish();
    };
    socket.on('data', onData);
    socket.once('close', finish);
  });
}

describe('the server process', () => {
  let dataDir: string;
  let server: Server | null = null;

  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-e2e-'));
  });
  afterAll(() => {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('a bad configuration value stops it with exit code 1 and a message naming the variable', async () => {
    const result = await runCommand(process.execPath, [MAIN], { LANEBOARD_DATA_DIR: dataDir, PORT: 'abc' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('PORT');
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    // Nothing was created for a configuration that was refused.
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('serves /healthz and keeps its data (SQLite in WAL mode, secret.key 0600) in the data dir', async () => {
    server = await startServer(dataDir);
    const res = await fetch(`http://127.0.0.1:${server.port}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });

    expect(fs.existsSync(path.join(dataDir, 'laneboard.sqlite'))).toBe(true);
    const sqlite = new SqliteDatabase(path.join(dataDir, 'laneboard.sqlite'), { readonly: true });
    try {
      expect(sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
      const tables = sqlite.prepare("select name from sqlite_master where type = 'table'").all();
      expect(tables).toContainEqual({ name: 'boards' });
    } finally {
      sqlite.close();
    }
    const keyFile = fs.statSync(path.join(dataDir, 'secret.key'));
    expect(keyFile.mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(path.join(dataDir, 'secret.key'), 'utf8').trim().length).toBeGreaterThanOrEqual(
      32,
    );
  });

  it('on SIGTERM finishes the request in flight (and one queued behind it), then exits 0', async () => {
    if (!server) throw new Error('server not started');
    // A key, made as the CLI would, in the same data dir.
    const runtime = await createRuntime(testConfig({ dataDir }), { log: pino({ level: 'silent' }) });
    const { key } = await runtime.services.apiKeys.createKey(OPERATOR, {
      name: 'e2e',
      allBoards: true,
      grants: [],
    });
    await runtime.close();

    const body = JSON.stringify({ name: 'Made during shutdown' });
    const socket = net.connect(server.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    // Headers and half of the body: the request is in flight, waiting for the rest.
    socket.write(
      `POST /api/ext/v1/boards HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
    );
    // A later request answered: the server has read the earlier one's headers (they were sent first).
    expect((await fetch(`http://127.0.0.1:${server.port}/healthz`)).status).toBe(200);
    server.child.kill('SIGTERM');
    // Shutting down (no new connections are accepted any more), yet running: a request is in flight.
    await waitUntil('the server to refuse new connections', () =>
      fetch(`http://127.0.0.1:${server!.port}/healthz`, { headers: { connection: 'close' } }).then(
        () => undefined,
        () => true,
      ),
    );
    expect(server.child.exitCode).toBeNull();

    const answers = readUntil(socket, (received) => (received.match(/HTTP\/1\.1 /g) ?? []).length >= 2);
    // The rest of the body, and a second request pipelined on the same connection.
    socket.write(
      `${body.slice(10)}GET /api/ext/v1/boards HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n\r\n`,
    );
    const received = await answers;
    socket.destroy();
    const statuses = [...received.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));
    expect(statuses).toEqual([201, 200]);
    expect(received).toContain('"name":"Made during shutdown"');

    // Bounded by the test's time-out: the exit code is what matters, not how fast a busy machine gets there.
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('shutting down');
    // Keys never reach the log.
    expect(server.output()).not.toContain(key);
  });
});
