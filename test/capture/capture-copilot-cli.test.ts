import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt, freePort } from '../support/built-server.js';
import { captureCli } from './capture-process.js';
import { fixture, useCaptureCase } from './capture-support.js';

const SESSION = 'b8f1c2d3-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

describe('laneboard capture copilot and capture status (the CLI process)', () => {
  let copilotHome: string;
  let eventLog: string;

  beforeAll(() => ensureBuilt());
  // Where Copilot CLI keeps the session's event log.
  const c = useCaptureCase('sqlite', {
    transcript: path.join('copilot-home', 'session-state', SESSION, 'events.jsonl'),
  });
  beforeEach(() => {
    copilotHome = path.join(c.dir, 'copilot-home');
    eventLog = c.transcript;
    fs.writeFileSync(eventLog, fixture('copilot-events.jsonl'));
    // The project the agent works in names its task.
    fs.mkdirSync(path.join(c.dir, 'project', '.laneboard'), { recursive: true });
    fs.writeFileSync(path.join(c.dir, 'project', '.laneboard', 'task'), `${c.shortId}\n`);
  });

  const env = (url?: string) => ({ ...c.hookEnv(url), COPILOT_HOME: copilotHome });
  const hook = (name: string) =>
    fixture(name).replace('TRANSCRIPT', eventLog).replace('/home/dev/shop', path.join(c.dir, 'project'));
  const logLines = () => fs.readFileSync(path.join(c.stateDir, 'capture.log'), 'utf8').trim().split('\n');

  it('agentStop, then sessionEnd (no transcriptPath: the log under COPILOT_HOME): each sends the new turns', async () => {
    const stop = await captureCli(['copilot'], hook('copilot-hook-agent-stop.json'), env());
    expect(stop).toEqual({ code: 0, stdout: '', stderr: '' });
    expect((await c.turns()).map((t) => t.sourceId)).toEqual([
      'e-0003-ask',
      'e-0006-text',
      'e-0009-tools',
      'e-0015-done',
    ]);

    fs.appendFileSync(eventLog, fixture('copilot-events-more.jsonl'));
    const end = await captureCli(['copilot'], hook('copilot-hook-session-end.json'), env());
    expect(end).toEqual({ code: 0, stdout: '', stderr: '' });
    const turns = await c.turns();
    expect(turns).toHaveLength(7);
    expect(turns.every((t) => (t as { source?: string }).source === 'copilot')).toBe(true);
    expect(logLines()).toEqual([
      expect.stringMatching(
        new RegExp(
          `info \\[\\d+\\] copilot agentStop session ${SESSION}: task ${c.shortId}: 4 turns sent, 4 new; offset`,
        ),
      ),
      expect.stringMatching(/copilot sessionEnd session .*: 3 turns sent, 3 new; offset/),
    ]);
    expect(logLines().join('\n')).not.toContain(c.server.key);
  });

  it('takes VS Code’s Stop in the shared format; exits 0 with one log line on bad input', async () => {
    const vscode = await captureCli(['copilot'], hook('copilot-hook-vscode-stop.json'), env());
    expect(vscode).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await c.turns()).toHaveLength(4);

    const runs = await Promise.all([
      captureCli(['copilot'], 'not json', env()),
      captureCli(['copilot', '--bogus'], '{"cwd":"/tmp"}', env()),
      captureCli(['copilot'], hook('copilot-hook-agent-stop.json'), env()),
    ]);
    for (const run of runs) expect(run).toEqual({ code: 0, stdout: '', stderr: '' });
    const lines = logLines();
    expect(lines).toHaveLength(4);
    expect(lines.filter((l) => /stdin is not a Copilot hook JSON object/.test(l))).toHaveLength(2);
    expect(lines.filter((l) => /: nothing new; offset/.test(l))).toHaveLength(1);
  });

  it('capture status: per transcript the task, the last turn sent and the last error; --json; --limit', async () => {
    const empty = await captureCli(['status'], null, env());
    expect(empty).toMatchObject({ code: 0, stderr: '' });
    expect(empty.stdout).toBe(`No capture runs recorded in ${c.stateDir}.\n`);

    await captureCli(['copilot'], hook('copilot-hook-agent-stop.json'), env());
    // A second session whose runs fail: the server is down.
    const otherLog = path.join(c.dir, 'other', 'events.jsonl');
    fs.mkdirSync(path.dirname(otherLog));
    fs.writeFileSync(otherLog, fixture('copilot-events.jsonl'));
    const down = `http://127.0.0.1:${await freePort()}`;
    const otherHook = hook('copilot-hook-agent-stop.json')
      .replace(eventLog, otherLog)
      .replace(SESSION, 'other-session');
    await captureCli(['copilot'], otherHook, env(down));

    const text = await captureCli(['status'], null, env());
    expect(text).toMatchObject({ code: 0, stderr: '' });
    // The failing transcript ran last: it comes first.
    expect(text.stdout.indexOf(otherLog)).toBeLessThan(text.stdout.indexOf(eventLog));
    expect(text.stdout).toMatch(
      new RegExp(`${eventLog}\\n  source +copilot, session ${SESSION}\\n  task +${c.shortId}\\n`),
    );
    expect(text.stdout).toMatch(/last turn +e-0015-done \(assistant, captured 2026-11-20T09:00:20.000Z\)/);
    expect(text.stdout).toMatch(
      /last error +\S+Z: GET \/boards: no answer .*the rest waits for the next run\./,
    );
    expect(text.stdout).toMatch(/last error +none/);

    const json = await captureCli(['status', '--json', '--limit', '1'], null, env());
    expect(json).toMatchObject({ code: 0, stderr: '' });
    const parsed = JSON.parse(json.stdout) as {
      stateDir: string;
      transcripts: Array<Record<string, unknown>>;
    };
    expect(parsed.stateDir).toBe(c.stateDir);
    expect(parsed.transcripts).toEqual([
      expect.objectContaining({
        transcriptPath: otherLog,
        source: 'copilot',
        sessionId: 'other-session',
        task: null,
        offset: 0,
        lastTurn: null,
        lastError: { at: expect.any(String), message: expect.stringMatching(/no answer/) },
      }),
    ]);

    const bad = await captureCli(['status', '--limit', '0'], null, env());
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('laneboard: --limit must be an integer from 1 to 1000.\n');
  });
});
