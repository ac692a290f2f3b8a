import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { StateStore } from '../../src/capture/state-store.js';
import { systemClock } from '../../src/lib/time.js';
import { freePort } from '../support/built-server.js';
import { describeEachDialect } from '../support/dialects.js';
import { fixture, memoryLog, runCapture, useCaptureCase } from './capture-support.js';

const FIRST_TURNS = ['u-0002-ask', 'a-0004-text', 'a-0005-tool', 'a-0009-tools', 'a-0011-done'];
const MORE_TURNS = ['u-0012-ask', 'a-0013-tool', 'a-0015-text'];

describeEachDialect('capture claude against a server', (dialect) => {
  const c = useCaptureCase(dialect, { transcript: 'session.jsonl' });

  const withTask = () => ({ taskOption: c.shortId });

  it('maps the transcript to turns: text, toolUseOnly summaries; skips meta, sidechain, thinking, tool results', async () => {
    fs.writeFileSync(c.transcript, fixture('claude-session.jsonl'));
    const outcome = await runCapture(c.server, c.transcript, c.stateDir, withTask());
    expect(outcome).toMatchObject({
      sent: 5,
      inserted: 5,
      stopped: null,
      offset: fs.statSync(c.transcript).size,
    });

    const turns = await c.turns();
    expect(turns.map((t) => t.sourceId)).toEqual(FIRST_TURNS);
    expect(turns[0]).toMatchObject({
      source: 'claude',
      role: 'user',
      content: "The login test fails since yesterday's merge. Can you fix it?",
      toolUseOnly: false,
      capturedAt: '2026-11-20T09:00:01.250Z',
    });
    expect(turns[2]).toMatchObject({
      role: 'assistant',
      toolUseOnly: true,
      content: 'Tool use: Bash(npm test -- test/login.test.ts)',
    });
    expect(turns[3]).toMatchObject({
      toolUseOnly: true,
      content: 'Tool use: Read(/home/dev/shop/src/login.ts), Grep(sessionCookie)',
    });
    expect(turns[4]?.toolUseOnly).toBe(false);
  });

  it('sends only the new lines on the second run, and leaves a half-written last line for later', async () => {
    fs.writeFileSync(c.transcript, fixture('claude-session.jsonl'));
    await runCapture(c.server, c.transcript, c.stateDir, withTask());

    const more = fixture('claude-session-more.jsonl').split('\n');
    // Two complete new lines and the third cut in the middle, as while Claude Code is writing it.
    const partial = `${more[0]}\n${more[1]}\n${(more[2] as string).slice(0, 40)}`;
    fs.appendFileSync(c.transcript, partial);
    const second = await runCapture(c.server, c.transcript, c.stateDir, withTask());
    expect(second).toMatchObject({ sent: 2, inserted: 2, stopped: null });
    expect(second.offset).toBe(fs.statSync(c.transcript).size - 40);

    fs.appendFileSync(c.transcript, `${(more[2] as string).slice(40)}\n${more[3]}\n`);
    const third = await runCapture(c.server, c.transcript, c.stateDir, withTask());
    expect(third).toMatchObject({ sent: 1, inserted: 1, stopped: null });

    const again = await runCapture(c.server, c.transcript, c.stateDir, withTask());
    expect(again).toMatchObject({ sent: 0, inserted: 0, stopped: null });
    expect((await c.turns()).map((t) => t.sourceId)).toEqual([...FIRST_TURNS, ...MORE_TURNS]);
  });

  it('reads a rewritten (shrunk or changed) transcript again from the start, with no duplicates', async () => {
    fs.writeFileSync(c.transcript, fixture('claude-session.jsonl') + fixture('claude-session-more.jsonl'));
    await runCapture(c.server, c.transcript, c.stateDir, withTask());

    // Compaction: the file now holds fewer lines, one of them new.
    const lines = fixture('claude-session.jsonl').split('\n').filter(Boolean);
    const compacted = JSON.stringify({
      ...JSON.parse(lines[2] as string),
      uuid: 'u-0100-after-compact',
      timestamp: '2026-11-20T10:00:00.000Z',
      message: { role: 'user', content: 'Now the logout test, please.' },
    });
    fs.writeFileSync(c.transcript, `${lines[2]}\n${compacted}\n`);
    const rewritten = await runCapture(c.server, c.transcript, c.stateDir, withTask());
    expect(rewritten).toMatchObject({ sent: 2, inserted: 1, stopped: null });

    // Same size as before but different content from the first byte: also a rewrite.
    const size = fs.statSync(c.transcript).size;
    const resumed = JSON.stringify({ ...JSON.parse(compacted), uuid: 'u-0101-resumed' });
    fs.writeFileSync(c.transcript, `${resumed}\n`.padEnd(size, ' '));
    const third = await runCapture(c.server, c.transcript, c.stateDir, withTask());
    expect(third).toMatchObject({ sent: 1, inserted: 1 });

    // The same first 4 KiB, and the same size, but the line just before the offset replaced (resume).
    const head = `${JSON.stringify({ type: 'summary', summary: 'x'.repeat(6000) })}\n`;
    const turnWith = (uuid: string) => `${JSON.stringify({ ...JSON.parse(compacted), uuid })}\n`;
    fs.writeFileSync(c.transcript, `${head}${turnWith('u-0102-first')}`);
    await runCapture(c.server, c.transcript, c.stateDir, withTask());
    fs.writeFileSync(c.transcript, `${head}${turnWith('u-0103-other')}${turnWith('u-0104-next')}`);
    const fourth = await runCapture(c.server, c.transcript, c.stateDir, withTask());
    expect(fourth).toMatchObject({ sent: 2, inserted: 2 });

    const ids = (await c.turns()).map((t) => t.sourceId);
    expect(ids).toHaveLength(new Set(ids).size);
    expect(ids).toEqual([
      ...FIRST_TURNS,
      ...MORE_TURNS,
      'u-0100-after-compact',
      'u-0101-resumed',
      'u-0102-first',
      'u-0103-other',
      'u-0104-next',
    ]);
  });

  it('captures two sessions on one task at once, and two runs on one transcript at once', async () => {
    const otherTranscript = path.join(c.dir, 'other.jsonl');
    const sessionB = fixture('claude-session.jsonl').replace(/"([usa])-00/g, '"$1-B00');
    fs.writeFileSync(c.transcript, fixture('claude-session.jsonl'));
    fs.writeFileSync(otherTranscript, sessionB);
    const outcomes = await Promise.all([
      runCapture(c.server, c.transcript, c.stateDir, withTask()),
      runCapture(c.server, otherTranscript, c.stateDir, withTask()),
      runCapture(c.server, c.transcript, c.stateDir, withTask()),
      runCapture(c.server, otherTranscript, c.stateDir, withTask()),
    ]);
    expect(outcomes.map((o) => o.stopped)).toEqual([null, null, null, null]);
    // Runs on the same transcript take turns: the second finds nothing left to send.
    expect(outcomes.map((o) => o.sent).sort()).toEqual([0, 0, 5, 5]);

    const ids = (await c.turns()).map((t) => t.sourceId);
    expect(ids).toHaveLength(10);
    expect(ids.filter((id) => id.includes('-B00'))).toHaveLength(5);
    const store = new StateStore(c.stateDir, systemClock);
    expect((await store.read(c.transcript))?.offset).toBe(fs.statSync(c.transcript).size);
    expect((await store.read(otherTranscript))?.offset).toBe(fs.statSync(otherTranscript).size);
    expect(fs.readdirSync(c.stateDir).filter((f) => !f.endsWith('.json'))).toEqual([]);
  });

  it('loses nothing while the server is down: the next run sends it', async () => {
    fs.writeFileSync(c.transcript, fixture('claude-session.jsonl'));
    const down = { url: `http://127.0.0.1:${await freePort()}`, key: c.server.key };
    const log = memoryLog();
    const offline = await runCapture(down, c.transcript, c.stateDir, { ...withTask(), log });
    expect(offline).toMatchObject({ sent: 0, inserted: 0, offset: 0 });
    expect(offline.stopped).toMatch(/no answer/);
    expect(log.lines.join('\n')).toMatch(/error .*no answer.*next run/);
    expect(log.lines.join('\n')).not.toContain(c.server.key);

    const online = await runCapture(c.server, c.transcript, c.stateDir, withTask());
    expect(online).toMatchObject({ sent: 5, inserted: 5, stopped: null });
    expect((await c.turns()).map((t) => t.sourceId)).toEqual(FIRST_TURNS);
  });

  it('sends 230 new turns in batches the server accepts (at most 100 each)', async () => {
    const lines: string[] = [];
    for (let i = 0; i < 230; i++) {
      const ts = new Date(Date.UTC(2026, 10, 20, 9, 0, i)).toISOString();
      const message = { role: 'user', content: `message ${i}` };
      lines.push(
        JSON.stringify({
          type: 'user',
          uuid: `bulk-${String(i).padStart(3, '0')}`,
          timestamp: ts,
          message,
        }),
      );
    }
    fs.writeFileSync(c.transcript, `${lines.join('\n')}\n`);
    // One batch of 230 would be refused with 400: all arriving shows the split.
    const outcome = await runCapture(c.server, c.transcript, c.stateDir, withTask());
    expect(outcome).toMatchObject({ sent: 230, inserted: 230, stopped: null });
    expect(await c.turns()).toHaveLength(200); // the list's page size; the total is checked next
    const detail = await c.server.t.request(
      c.server.key,
      'GET',
      `/api/ext/v1/boards/${c.server.boardId}/tasks/${c.taskId}/turns/watermark`,
    );
    expect(detail.json().watermarks.claude.sourceId).toBe('bulk-229');
  });

  it('does not move the offset past a batch the server refused', async () => {
    fs.writeFileSync(c.transcript, fixture('claude-session.jsonl'));
    const first = await runCapture(c.server, c.transcript, c.stateDir, withTask());
    fs.appendFileSync(c.transcript, fixture('claude-session-more.jsonl'));

    const readOnly = (await c.server.t.createKey({ [c.server.boardId]: 'read' })).key;
    const refused = await runCapture(
      { url: c.server.url, key: readOnly },
      c.transcript,
      c.stateDir,
      withTask(),
    );
    expect(refused.stopped).toMatch(/HTTP 403 forbidden/);
    expect(refused.offset).toBe(first.offset);

    const retried = await runCapture(c.server, c.transcript, c.stateDir, withTask());
    expect(retried).toMatchObject({ sent: 3, inserted: 3, stopped: null });
    expect((await c.turns()).map((t) => t.sourceId)).toEqual([...FIRST_TURNS, ...MORE_TURNS]);
  });

  it('truncates content over 1 MiB with a visible marker', async () => {
    const big = 'é'.repeat(700_000); // 1.4 MB of UTF-8
    fs.writeFileSync(
      c.transcript,
      `${JSON.stringify({ type: 'assistant', uuid: 'a-big', timestamp: '2026-11-20T09:00:00.000Z', message: { role: 'assistant', content: [{ type: 'text', text: big }] } })}\n`,
    );
    const outcome = await runCapture(c.server, c.transcript, c.stateDir, withTask());
    expect(outcome).toMatchObject({ sent: 1, inserted: 1 });
    const [stored] = await c.turns();
    expect(Buffer.byteLength(stored?.content ?? '', 'utf8')).toBeLessThanOrEqual(1024 * 1024);
    expect(stored?.content).toMatch(/\[… truncated by laneboard capture: \d+ bytes omitted\]$/);
    expect(stored?.content.startsWith('éé')).toBe(true);
  });

  it('finds the task from the git branch of cwd, trying each shortId-like word until one exists', async () => {
    const repo = path.join(c.dir, 'repo');
    fs.mkdirSync(path.join(repo, '.git'), { recursive: true });
    fs.writeFileSync(path.join(repo, '.git', 'HEAD'), `ref: refs/heads/feature/settings-${c.shortId}\n`);
    fs.writeFileSync(c.transcript, fixture('claude-session.jsonl'));
    const input = { transcriptPath: c.transcript, sessionId: 's', cwd: repo, hookEventName: 'SessionEnd' };
    const outcome = await runCapture(c.server, c.transcript, c.stateDir, { input });
    expect(outcome).toMatchObject({ sent: 5, stopped: null });
    expect(await c.turns()).toHaveLength(5);
  });

  it('logs and sends nothing when the task is not found, the key is wrong or nothing is configured', async () => {
    fs.writeFileSync(c.transcript, fixture('claude-session.jsonl'));
    const log = memoryLog();
    expect(
      await runCapture(c.server, c.transcript, c.stateDir, { taskOption: 'zzzzzzzz', log }),
    ).toMatchObject({
      sent: 0,
      stopped: 'task not found',
    });
    const badKey = await runCapture({ url: c.server.url, key: 'ak_wrong' }, c.transcript, c.stateDir, {
      ...withTask(),
      log,
    });
    expect(badKey.stopped).toMatch(/HTTP 401 invalid_key/);
    const unset = await runCapture(c.server, c.transcript, c.stateDir, { ...withTask(), env: {}, log });
    expect(unset.stopped).toBe('not configured');
    expect(log.lines.join('\n')).not.toContain('ak_wrong');
    expect(await c.turns()).toEqual([]);
  });
});
