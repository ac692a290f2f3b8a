import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { batchLines } from '../../src/capture/batches.js';
import { mapClaudeLine } from '../../src/capture/claude-transcript.js';
import { deadlineAfter } from '../../src/capture/deadline.js';
import { StateStore } from '../../src/capture/state-store.js';
import { truncateContent } from '../../src/capture/truncate.js';
import { fixture, scratchDir } from './capture-support.js';

const line = (fields: Record<string, unknown>) =>
  JSON.stringify({ uuid: 'x-1', timestamp: '2026-11-20T09:00:00.000Z', ...fields });

describe('mapping Claude Code transcript lines', () => {
  it('maps the recorded session line by line', () => {
    const mapped = fixture('claude-session.jsonl')
      .split('\n')
      .filter(Boolean)
      .map((text) => mapClaudeLine(text));
    expect(
      mapped.map((turn) => turn && `${turn.role}:${turn.sourceId}:${turn.toolUseOnly === true}`),
    ).toEqual([
      null, // summary
      null, // isMeta
      'user:u-0002-ask:false',
      null, // thinking only
      'assistant:a-0004-text:false',
      'assistant:a-0005-tool:true',
      null, // tool result
      null, // sidechain user
      null, // sidechain assistant
      'assistant:a-0009-tools:true',
      null, // system
      'assistant:a-0011-done:false',
      null, // file-history-snapshot
    ]);
  });

  it('joins text blocks, keeps text next to tool results, and skips what is no turn', () => {
    const blocks = [
      { type: 'text', text: 'first' },
      { type: 'tool_use', name: 'Bash', input: { command: 'ls' } },
      { type: 'text', text: 'second' },
    ];
    expect(mapClaudeLine(line({ type: 'assistant', message: { content: blocks } }))).toEqual({
      source: 'claude',
      sourceId: 'x-1',
      role: 'assistant',
      content: 'first\n\nsecond',
      capturedAt: '2026-11-20T09:00:00.000Z',
    });
    const mixed = [
      { type: 'tool_result', content: 'ok' },
      { type: 'text', text: 'and then this' },
    ];
    expect(mapClaudeLine(line({ type: 'user', message: { content: mixed } }))?.content).toBe('and then this');
    expect(mapClaudeLine(line({ type: 'user', message: { content: '   ' } }))).toBeNull();
    expect(
      mapClaudeLine(line({ type: 'user', isCompactSummary: true, message: { content: 'summary' } })),
    ).toBeNull();
    expect(mapClaudeLine(line({ type: 'user', uuid: undefined, message: { content: 'a' } }))).toBeNull();
    expect(
      mapClaudeLine(line({ type: 'user', timestamp: 'yesterday', message: { content: 'a' } })),
    ).toBeNull();
    expect(mapClaudeLine('{"type":"user", "uuid": "cut in the mid')).toBeNull();
    expect(mapClaudeLine('null')).toBeNull();
  });

  it('summarises tool calls on one short line', () => {
    const long = `echo ${'x'.repeat(200)}\n&& done`;
    const turn = mapClaudeLine(
      line({
        type: 'assistant',
        message: {
          content: [
            { type: 'tool_use', name: 'Bash', input: { command: long } },
            { type: 'tool_use', name: 'TodoWrite', input: { todos: [] } },
          ],
        },
      }),
    );
    expect(turn?.toolUseOnly).toBe(true);
    expect(turn?.content).toMatch(/^Tool use: Bash\(echo x{75}…\), TodoWrite$/);
  });
});

describe('truncating content to the 1 MiB limit', () => {
  it('leaves content at the limit alone and cuts longer content on a character boundary with a marker', () => {
    expect(truncateContent('abc', 3)).toBe('abc');
    const cut = truncateContent('€'.repeat(100), 90); // 3 bytes each
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(90);
    expect(cut).toMatch(/^€+\n\n\[… truncated by laneboard capture: \d+ bytes omitted\]$/);
    const kept = cut.split('\n')[0] as string;
    expect(cut).toContain(`${300 - Buffer.byteLength(kept)} bytes omitted`);
  });
});

describe('batching turns', () => {
  const turnLine = (i: number, content = 'hi') => ({
    turn: mapClaudeLine(line({ type: 'user', uuid: `u-${i}`, message: { content } })),
    end: (i + 1) * 10,
  });

  it('closes a batch at 100 turns or at the byte limit, and carries trailing non-turn lines', () => {
    const lines = Array.from({ length: 250 }, (_, i) => turnLine(i));
    lines.push({ turn: null, end: 2600 });
    const batches = batchLines(lines, 0);
    expect(batches.map((b) => b.turns.length)).toEqual([100, 100, 50]);
    expect(batches.map((b) => b.end)).toEqual([1000, 2000, 2600]);

    const bySize = batchLines([turnLine(0, 'a'.repeat(600)), turnLine(1, 'b'.repeat(600))], 0, 1000);
    expect(bySize.map((b) => b.turns.length)).toEqual([1, 1]);
  });

  it('moves past lines that are no turn even when no turn is left to send', () => {
    expect(batchLines([{ turn: null, end: 42 }], 20)).toEqual([{ turns: [], end: 42 }]);
    expect(batchLines([], 20)).toEqual([]);
  });
});

describe('the capture state store', () => {
  let dir: string;
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('waits for a held lock no longer than the deadline, and breaks a stale one', async () => {
    dir = scratchDir();
    let now = 1_000_000;
    const clock = { now: () => now };
    const store = new StateStore(dir, clock, 60_000);
    const release = await store.lock('/t/a.jsonl', deadlineAfter(clock, 1000));
    expect(release).not.toBeNull();
    // The deadline is already spent: the second run gives up at once instead of waiting.
    expect(await store.lock('/t/a.jsonl', deadlineAfter(clock, 0))).toBeNull();
    // Another transcript has its own lock.
    expect(await store.lock('/t/b.jsonl', deadlineAfter(clock, 0))).not.toBeNull();
    // Left by a killed run: older than the stale limit, it is broken.
    const lockFile = fs.readdirSync(dir).find((f) => f.endsWith('.lock')) as string;
    const mtime = fs.statSync(path.join(dir, lockFile)).mtimeMs;
    now = mtime + 60_001;
    expect(await store.lock('/t/a.jsonl', deadlineAfter(clock, 0))).not.toBeNull();
    await release?.();
  });

  it('reads back what it wrote, and treats a damaged file as no state', async () => {
    dir = scratchDir();
    const store = new StateStore(dir, { now: () => 0 });
    const state = { transcriptPath: '/t/a.jsonl', offset: 42, fingerprint: 'f', task: null };
    await store.write(state);
    expect(await store.read('/t/a.jsonl')).toEqual(state);
    const file = fs.readdirSync(dir).find((f) => f.endsWith('.json')) as string;
    fs.writeFileSync(path.join(dir, file), '{"offset": ');
    expect(await store.read('/t/a.jsonl')).toBeNull();
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
