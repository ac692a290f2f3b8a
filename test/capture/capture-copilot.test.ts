import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { StateStore } from '../../src/capture/state-store.js';
import { systemClock } from '../../src/lib/time.js';
import { freePort } from '../support/built-server.js';
import { describeEachDialect } from '../support/dialects.js';
import { fixture, memoryLog, runCopilot, useCaptureCase } from './capture-support.js';

const FIRST_TURNS = ['e-0003-ask', 'e-0006-text', 'e-0009-tools', 'e-0015-done'];
const MORE_TURNS = ['e-0017-ask', 'e-0019-tool', 'e-0020-text'];

describeEachDialect('capture copilot against a server', (dialect) => {
  const c = useCaptureCase(dialect, { transcript: 'events.jsonl' });

  const withTask = () => ({ taskOption: c.shortId });

  it('sends user and assistant messages as turns with source copilot, the event id and timestamp', async () => {
    fs.writeFileSync(c.transcript, fixture('copilot-events.jsonl'));
    const log = memoryLog();
    const outcome = await runCopilot(c.server, c.transcript, c.stateDir, { ...withTask(), log });
    expect(outcome).toMatchObject({ sent: 4, inserted: 4, stopped: null, malformed: 0 });
    expect(outcome.offset).toBe(fs.statSync(c.transcript).size);

    const turns = await c.turns();
    expect(turns.map((t) => t.sourceId)).toEqual(FIRST_TURNS);
    expect(turns[0]).toMatchObject({
      source: 'copilot',
      role: 'user',
      capturedAt: '2026-11-20T09:00:01.250Z',
      toolUseOnly: false,
    });
    expect(turns[2]).toMatchObject({ role: 'assistant', toolUseOnly: true });
    expect(log.lines).toEqual([
      expect.stringMatching(
        new RegExp(
          `^info copilot agentStop session copilot-test: task ${c.shortId}: 4 turns sent, 4 new; offset \\d+\\.$`,
        ),
      ),
    ]);
  });

  it('is idempotent: a second run sends nothing, and a run without state sends nothing new', async () => {
    fs.writeFileSync(c.transcript, fixture('copilot-events.jsonl'));
    await runCopilot(c.server, c.transcript, c.stateDir, withTask());
    const log = memoryLog();
    expect(await runCopilot(c.server, c.transcript, c.stateDir, { ...withTask(), log })).toMatchObject({
      sent: 0,
      inserted: 0,
      stopped: null,
    });
    expect(log.lines).toEqual([expect.stringMatching(/: nothing new; offset \d+\.$/)]);

    // State lost: everything is read and sent again, and the server stores none of it twice.
    fs.rmSync(c.stateDir, { recursive: true });
    expect(await runCopilot(c.server, c.transcript, c.stateDir, withTask())).toMatchObject({
      sent: 4,
      inserted: 0,
    });

    fs.appendFileSync(c.transcript, fixture('copilot-events-more.jsonl'));
    expect(await runCopilot(c.server, c.transcript, c.stateDir, withTask())).toMatchObject({
      sent: 3,
      inserted: 3,
    });
    expect((await c.turns()).map((t) => t.sourceId)).toEqual([...FIRST_TURNS, ...MORE_TURNS]);
  });

  it('loses nothing while the server is down: the next run sends it', async () => {
    fs.writeFileSync(c.transcript, fixture('copilot-events.jsonl'));
    const down = { url: `http://127.0.0.1:${await freePort()}`, key: c.server.key };
    const log = memoryLog();
    const offline = await runCopilot(down, c.transcript, c.stateDir, { ...withTask(), log });
    expect(offline).toMatchObject({ sent: 0, offset: 0 });
    expect(offline.stopped).toMatch(/no answer/);
    expect(log.lines).toEqual([expect.stringMatching(/^error .*no answer.*next run\.$/)]);
    const state = await new StateStore(c.stateDir, systemClock).read(c.transcript);
    expect(state?.lastError?.message).toMatch(/no answer/);

    fs.appendFileSync(c.transcript, fixture('copilot-events-more.jsonl'));
    const online = await runCopilot(c.server, c.transcript, c.stateDir, withTask());
    expect(online).toMatchObject({ sent: 7, inserted: 7, stopped: null });
    expect((await c.turns()).map((t) => t.sourceId)).toEqual([...FIRST_TURNS, ...MORE_TURNS]);
    const after = await new StateStore(c.stateDir, systemClock).read(c.transcript);
    expect(after).toMatchObject({
      source: 'copilot',
      lastError: null,
      lastTurn: { sourceId: 'e-0020-text', role: 'assistant' },
    });
  });

  it('agentStop and sessionEnd at once on one session: they take turns, each turn stored once', async () => {
    fs.writeFileSync(c.transcript, fixture('copilot-events.jsonl') + fixture('copilot-events-more.jsonl'));
    const otherLog = path.join(c.dir, 'other-events.jsonl');
    fs.writeFileSync(otherLog, fixture('copilot-events.jsonl').replace(/"e-00/g, '"o-00'));
    const sessionEnd = {
      transcriptPath: c.transcript,
      sessionId: 's',
      cwd: null,
      hookEventName: 'sessionEnd',
    };
    const outcomes = await Promise.all([
      runCopilot(c.server, c.transcript, c.stateDir, withTask()),
      runCopilot(c.server, c.transcript, c.stateDir, { ...withTask(), input: sessionEnd }),
      runCopilot(c.server, otherLog, c.stateDir, withTask()),
    ]);
    expect(outcomes.map((o) => o.stopped)).toEqual([null, null, null]);
    expect(outcomes.map((o) => o.sent).sort((a, b) => a - b)).toEqual([0, 4, 7]);
    const ids = (await c.turns()).map((t) => t.sourceId);
    expect(ids).toHaveLength(11);
    expect(new Set(ids).size).toBe(11);
  });

  it('skips malformed lines, counts them in its one log line, and moves past them', async () => {
    const lines = fixture('copilot-events.jsonl').split('\n');
    lines.splice(3, 0, '{"type":"user.message","id":"e-cut', '{"type":"assistant.message","id":"x"}');
    fs.writeFileSync(c.transcript, lines.join('\n'));
    const log = memoryLog();
    const outcome = await runCopilot(c.server, c.transcript, c.stateDir, { ...withTask(), log });
    expect(outcome).toMatchObject({ sent: 4, malformed: 2, offset: fs.statSync(c.transcript).size });
    expect(log.lines).toEqual([
      expect.stringMatching(/4 turns sent, 4 new, 2 malformed lines skipped; offset/),
    ]);

    // Only malformed lines are new: nothing to send, no request, still one line saying so.
    fs.appendFileSync(c.transcript, 'not json\n');
    const again = memoryLog();
    expect(await runCopilot(c.server, c.transcript, c.stateDir, { ...withTask(), log: again })).toMatchObject(
      {
        sent: 0,
        malformed: 1,
        stopped: null,
      },
    );
    expect(again.lines).toEqual([expect.stringMatching(/: nothing new, 1 malformed line skipped; offset/)]);
  });

  it('says so when the file is no event log at all (another kind of transcript)', async () => {
    const other = path.join(c.dir, 'transcript.json');
    fs.writeFileSync(
      other,
      `${JSON.stringify({ version: 3, requests: [{ message: { text: 'hi' } }] }, null, 2)}\n`,
    );
    const log = memoryLog();
    const outcome = await runCopilot(c.server, other, c.stateDir, { ...withTask(), log });
    expect(outcome).toMatchObject({ sent: 0, malformed: 10 });
    expect(log.lines).toEqual([
      expect.stringMatching(
        /^error .*: not a copilot transcript: 10 malformed lines and nothing else; nothing sent\.$/,
      ),
    ]);
    const state = await new StateStore(c.stateDir, systemClock).read(other);
    expect(state?.lastError?.message).toMatch(/not a copilot transcript/);
  });

  it('writes one log line, and records the reason, when it cannot send', async () => {
    fs.writeFileSync(c.transcript, fixture('copilot-events.jsonl'));
    const log = memoryLog();
    await runCopilot(c.server, c.transcript, c.stateDir, { taskOption: 'zzzzzzzz', log });
    await runCopilot(c.server, c.transcript, c.stateDir, { ...withTask(), env: {}, log });
    await runCopilot(c.server, path.join(c.dir, 'missing.jsonl'), c.stateDir, { ...withTask(), log });
    expect(log.lines).toEqual([
      expect.stringMatching(
        /^error .*: task zzzzzzzz \(from option\) not found with this key; nothing sent\.$/,
      ),
      expect.stringMatching(
        /^error .*: LANEBOARD_URL and LANEBOARD_API_KEY must both be set; nothing sent\.$/,
      ),
      expect.stringMatching(/^error .*: cannot read the transcript .*missing\.jsonl; nothing sent\.$/),
    ]);
    const store = new StateStore(c.stateDir, systemClock);
    expect((await store.read(c.transcript))?.lastError?.message).toMatch(/LANEBOARD_URL/);
    expect(await c.turns()).toEqual([]);
  });
});
