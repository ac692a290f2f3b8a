import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt, freePort } from '../support/built-server.js';
import { captureCli } from './capture-process.js';
import { fixture, useCaptureCase } from './capture-support.js';

/** `laneboard capture claude <args>` as Claude Code runs the hook. */
const claudeCli = (args: string[], stdin: string | null, env: Record<string, string>) =>
  captureCli(['claude', ...args], stdin, env);

describe('laneboard capture claude (the CLI process)', () => {
  beforeAll(() => ensureBuilt());
  const c = useCaptureCase('sqlite', { transcript: 'session.jsonl' });
  beforeEach(() => fs.writeFileSync(c.transcript, fixture('claude-session.jsonl')));

  const hookJson = () =>
    JSON.stringify({ session_id: 's-1', transcript_path: c.transcript, cwd: c.dir, hook_event_name: 'Stop' });
  const log = () => fs.readFileSync(path.join(c.stateDir, 'capture.log'), 'utf8');

  it('sends the transcript as turns, exits 0 silently and logs without the key', async () => {
    const run = await claudeCli([], hookJson(), { ...c.hookEnv(), LANEBOARD_TASK: c.shortId });
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(await c.turns()).toHaveLength(5);
    expect(log()).toMatch(/info .*Stop session s-1: task \w{8}: 5 turns sent, 5 new/);
    expect(log()).not.toContain(c.server.key);
  });

  it('exits 0 with bad input: not JSON, no transcript_path, empty stdin, unknown options, a missing file', async () => {
    const env = c.hookEnv();
    const runs = await Promise.all([
      claudeCli([], 'this is not json', env),
      claudeCli([], '{"session_id":"s"}', env),
      claudeCli([], '', env),
      claudeCli(['--bogus', 'extra', '--task'], hookJson(), env),
      claudeCli(
        ['--task', c.shortId],
        JSON.stringify({ transcript_path: path.join(c.dir, 'gone.jsonl') }),
        env,
      ),
    ]);
    for (const run of runs) expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    // One line per run, whatever stopped it.
    expect(log().trim().split('\n')).toHaveLength(5);
    expect(log()).toMatch(/stdin is not a Claude Code hook JSON object/);
    expect(log()).toMatch(/no task found/);
    expect(log()).toMatch(/cannot read the transcript/);
    expect(await c.turns()).toEqual([]);
  });

  it('exits 0 within its budget while the server is down, and the next run sends everything', async () => {
    const nobody = `http://127.0.0.1:${await freePort()}`;
    const down = await claudeCli(['--task', c.shortId], hookJson(), c.hookEnv(nobody));
    expect(down).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(log()).toMatch(/error .*no answer.*the rest waits for the next run/);

    const up = await claudeCli(['--task', c.shortId], hookJson(), c.hookEnv());
    expect(up).toMatchObject({ code: 0, stderr: '' });
    expect(await c.turns()).toHaveLength(5);
  });

  it('Stop with last_assistant_message: the answer arrives with that run, and only once', async () => {
    const lines = fixture('claude-session.jsonl').split('\n').filter(Boolean);
    fs.writeFileSync(c.transcript, `${lines.slice(0, 11).join('\n')}\n`);
    const answer = JSON.parse(lines[11] as string).message.content[0].text as string;
    const env = { ...c.hookEnv(), LANEBOARD_TASK: c.shortId };
    const stop = JSON.stringify({ ...JSON.parse(hookJson()), last_assistant_message: answer });
    expect(await claudeCli([], stop, env)).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect((await c.turns()).map((t) => t.content)).toContain(answer);

    fs.appendFileSync(c.transcript, `${lines.slice(11).join('\n')}\n`);
    const end = JSON.stringify({ ...JSON.parse(hookJson()), hook_event_name: 'SessionEnd' });
    expect(await claudeCli([], end, env)).toMatchObject({ code: 0, stderr: '' });
    const turns = await c.turns();
    expect(turns).toHaveLength(5);
    expect(turns.filter((t) => t.content === answer)).toHaveLength(1);
    expect(log().trim().split('\n')).toEqual([
      expect.stringMatching(
        /claude Stop session s-1: .*5 turns sent \(the final answer from the hook input\), 5 new/,
      ),
      expect.stringMatching(/claude SessionEnd session s-1: nothing new; offset \d+\.$/),
    ]);
  });

  it('gives up on stdin that never closes and still exits 0 within the budget', async () => {
    const run = await claudeCli([], null, {
      LANEBOARD_CAPTURE_STATE_DIR: c.stateDir,
      LANEBOARD_CAPTURE_TIMEOUT: '500ms',
    });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    // It stopped waiting for stdin at its budget, rather than being stopped by the hard stop after it
    // (budget + 2 s): timed from inside, so a slow start on a busy machine does not count.
    expect(log()).toMatch(/stdin is not a Claude Code hook JSON object/);
    expect(log()).not.toMatch(/did not finish within/);
  });
});
