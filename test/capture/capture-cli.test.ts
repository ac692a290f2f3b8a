import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { childEnv, PROJECT_ROOT } from '../cli/run-cli.js';
import { ensureBuilt, freePort } from '../support/built-server.js';
import {
  type CaptureServer,
  fixture,
  scratchDir,
  startCaptureServer,
  storedTurns,
} from './capture-support.js';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `laneboard capture claude <args>` as Claude Code runs the hook: JSON on stdin, then stdin closed. */
function captureCli(args: string[], stdin: string | null, env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [path.join(PROJECT_ROOT, 'bin/laneboard.js'), 'capture', 'claude', ...args],
      {
        cwd: PROJECT_ROOT,
        env: childEnv(env),
        stdio: 'pipe',
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      stdout += c;
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      stderr += c;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`capture did not finish in 60 s; killed. ${stderr}`));
    }, 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    // null: stdin left open, as a parent that never closes the pipe would.
    if (stdin !== null) child.stdin.end(stdin);
  });
}

describe('laneboard capture claude (the CLI process)', () => {
  let server: CaptureServer;
  let dir: string;
  let stateDir: string;
  let transcript: string;
  let task: { taskId: string; shortId: string };

  beforeAll(async () => {
    ensureBuilt();
    server = await startCaptureServer('sqlite');
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    dir = scratchDir();
    stateDir = path.join(dir, 'state');
    transcript = path.join(dir, 'session.jsonl');
    fs.writeFileSync(transcript, fixture('claude-session.jsonl'));
    task = await server.newTask();
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const hookJson = () =>
    JSON.stringify({ session_id: 's-1', transcript_path: transcript, cwd: dir, hook_event_name: 'Stop' });
  const log = () => fs.readFileSync(path.join(stateDir, 'capture.log'), 'utf8');

  it('sends the transcript as turns, exits 0 silently and logs without the key', async () => {
    const run = await captureCli([], hookJson(), {
      LANEBOARD_URL: server.url,
      LANEBOARD_API_KEY: server.key,
      LANEBOARD_TASK: task.shortId,
      LANEBOARD_CAPTURE_STATE_DIR: stateDir,
    });
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(await storedTurns(server, task.taskId)).toHaveLength(5);
    expect(log()).toMatch(/info .*Stop session s-1: task \w{8}: 5 turns sent, 5 new/);
    expect(log()).not.toContain(server.key);
  });

  it('exits 0 with bad input: not JSON, no transcript_path, empty stdin, unknown options, a missing file', async () => {
    const env = {
      LANEBOARD_URL: server.url,
      LANEBOARD_API_KEY: server.key,
      LANEBOARD_CAPTURE_STATE_DIR: stateDir,
    };
    const runs = await Promise.all([
      captureCli([], 'this is not json', env),
      captureCli([], '{"session_id":"s"}', env),
      captureCli([], '', env),
      captureCli(['--bogus', 'extra', '--task'], hookJson(), env),
      captureCli(
        ['--task', task.shortId],
        JSON.stringify({ transcript_path: path.join(dir, 'gone.jsonl') }),
        env,
      ),
    ]);
    for (const run of runs) expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(log()).toMatch(/stdin is not a Claude Code hook JSON object/);
    expect(log()).toMatch(/no task found/);
    expect(log()).toMatch(/cannot read the transcript/);
    expect(await storedTurns(server, task.taskId)).toEqual([]);
  });

  it('exits 0 within its budget while the server is down, and the next run sends everything', async () => {
    const base = { LANEBOARD_API_KEY: server.key, LANEBOARD_CAPTURE_STATE_DIR: stateDir };
    const down = await captureCli(['--task', task.shortId], hookJson(), {
      ...base,
      LANEBOARD_URL: `http://127.0.0.1:${await freePort()}`,
    });
    expect(down).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(log()).toMatch(/error .*no answer.*the rest waits for the next run/);

    const up = await captureCli(['--task', task.shortId], hookJson(), { ...base, LANEBOARD_URL: server.url });
    expect(up).toMatchObject({ code: 0, stderr: '' });
    expect(await storedTurns(server, task.taskId)).toHaveLength(5);
  });

  it('gives up on stdin that never closes and still exits 0 within the budget', async () => {
    const run = await captureCli([], null, {
      LANEBOARD_CAPTURE_STATE_DIR: stateDir,
      LANEBOARD_CAPTURE_TIMEOUT: '500ms',
    });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    // It stopped waiting for stdin at its budget, rather than being stopped by the hard stop after it
    // (budget + 2 s): timed from inside, so a slow start on a busy machine does not count.
    expect(log()).toMatch(/stdin is not a Claude Code hook JSON object/);
    expect(log()).not.toMatch(/did not finish within/);
  });
});
