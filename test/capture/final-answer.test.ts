import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { MappedLine } from '../../src/capture/batches.js';
import { mapClaudeLine } from '../../src/capture/claude-transcript.js';
import { answerHash, hookAnswerTurn, trackAnswers } from '../../src/capture/final-answer.js';
import { parseHookInput } from '../../src/capture/hook-input.js';
import { describeEachDialect } from '../support/dialects.js';
import { fixture, memoryLog, runCapture, useCaptureCase } from './capture-support.js';

const LINES = fixture('claude-session.jsonl').split('\n').filter(Boolean);
/** The transcript as Claude Code may have written it when `Stop` runs: the final answer not yet in it. */
const BEFORE_ANSWER = `${LINES.slice(0, 11).join('\n')}\n`;
const ANSWER_LINE = LINES[11] as string;
const REST = `${LINES.slice(11).join('\n')}\n`;
const ANSWER = (mapClaudeLine(ANSWER_LINE)?.content ?? '') as string;

const at = (offset: number) => ({
  source: 'claude' as const,
  sessionId: 's-1',
  offset,
  now: Date.parse('2026-11-20T09:00:30Z'),
});
const turnLine = (role: 'user' | 'assistant', content: string, end: number): MappedLine => ({
  turn: { source: 'claude', sourceId: `id-${end}`, role, content, capturedAt: '2026-11-20T09:00:00Z' },
  end,
});

describe('the final answer from the Stop hook (rules)', () => {
  it('reads last_assistant_message from Claude Code’s Stop input, where present', () => {
    const stop = { session_id: 's', transcript_path: '/t.jsonl', hook_event_name: 'Stop' };
    expect(parseHookInput(JSON.stringify({ ...stop, last_assistant_message: 'Done.' }))).toMatchObject({
      lastAssistantMessage: 'Done.',
    });
    expect(parseHookInput(JSON.stringify(stop))?.lastAssistantMessage).toBeUndefined();
  });

  it('sends the answer unless it is the one already sent for this prompt (whitespace aside)', () => {
    const first = hookAnswerTurn('All  fixed.\n', null, at(100));
    expect(first?.turn).toMatchObject({
      source: 'claude',
      role: 'assistant',
      content: 'All  fixed.\n',
      capturedAt: '2026-11-20T09:00:30.000Z',
      sourceId: expect.stringMatching(/^stop:s-1:100:[0-9a-f]{16}$/),
    });
    expect(hookAnswerTurn('All fixed.', first?.memo ?? null, at(100))).toBeNull();
    expect(hookAnswerTurn('   ', null, at(100))).toBeNull();
    // The same words at another point of the transcript get another sourceId.
    expect(hookAnswerTurn('All fixed.', null, at(200))?.turn.sourceId).not.toBe(first?.turn.sourceId);
  });

  it('drops the transcript’s copy of an answer sent from the hook, even after other lines; a new prompt ends the wait', () => {
    const memo = { hash: answerHash('Done.'), echo: answerHash('Done.') };
    const tracked = trackAnswers(
      [
        turnLine('assistant', 'One more step.', 10),
        turnLine('assistant', 'Done.', 20),
        turnLine('user', 'Next', 30),
      ],
      memo,
    );
    expect(tracked.lines.map((l) => l.turn?.content ?? null)).toEqual(['One more step.', null, 'Next']);
    expect(tracked.memoAt(0)).toEqual(memo);
    expect(tracked.memoAt(20)).toEqual({ hash: answerHash('Done.'), echo: null });
    expect(tracked.memoAt(30)).toBeNull();

    // The echo never came before the next prompt: the same words answered later are sent again.
    const later = trackAnswers([turnLine('user', 'Again?', 10), turnLine('assistant', 'Done.', 20)], memo);
    expect(later.lines.map((l) => l.turn?.content)).toEqual(['Again?', 'Done.']);
  });
});

describeEachDialect('the final answer from the Stop hook', (dialect) => {
  const c = useCaptureCase(dialect, { transcript: 'session.jsonl' });

  const stop = (message: string | null, event = 'Stop') => ({
    taskOption: c.shortId,
    input: {
      transcriptPath: c.transcript,
      sessionId: 's-1',
      cwd: null,
      hookEventName: event,
      ...(message === null ? {} : { lastAssistantMessage: message }),
    },
  });

  it('arrives with the Stop run, and its transcript line, written later, is not sent again', async () => {
    fs.writeFileSync(c.transcript, BEFORE_ANSWER);
    const log = memoryLog();
    const first = await runCapture(c.server, c.transcript, c.stateDir, { ...stop(ANSWER), log });
    expect(first).toMatchObject({ sent: 5, inserted: 5, stopped: null });
    expect(log.lines).toEqual([
      expect.stringMatching(/5 turns sent \(the final answer from the hook input\), 5 new/),
    ]);
    const afterStop = await c.turns();
    expect(afterStop.at(-1)).toMatchObject({
      role: 'assistant',
      content: ANSWER,
      sourceId: expect.stringMatching(/^stop:s-1:/),
    });

    fs.appendFileSync(c.transcript, REST);
    const end = await runCapture(c.server, c.transcript, c.stateDir, stop(null, 'SessionEnd'));
    expect(end).toMatchObject({ sent: 0, stopped: null });
    const turns = await c.turns();
    expect(turns).toHaveLength(5);
    expect(turns.filter((t) => t.content === ANSWER)).toHaveLength(1);
  });

  it('is not sent twice when the transcript already holds it, or when Stop runs again', async () => {
    fs.writeFileSync(c.transcript, fixture('claude-session.jsonl'));
    // Claude Code's text and ours may differ in whitespace only.
    const echoed = ANSWER.replace(/ /g, '  ');
    expect(await runCapture(c.server, c.transcript, c.stateDir, stop(echoed))).toMatchObject({
      sent: 5,
      inserted: 5,
    });
    expect(await runCapture(c.server, c.transcript, c.stateDir, stop(echoed))).toMatchObject({ sent: 0 });
    const turns = await c.turns();
    expect(turns.map((t) => t.sourceId).at(-1)).toBe('a-0011-done');
    expect(turns).toHaveLength(5);
  });

  it('is sent again when the same words answer a later prompt', async () => {
    // The hook's answer is stamped with the time of the run: runs at the transcript's time keep the order.
    const clockAt = (iso: string) => ({ clock: { now: () => Date.parse(iso) } });
    fs.writeFileSync(c.transcript, BEFORE_ANSWER);
    await runCapture(c.server, c.transcript, c.stateDir, {
      ...stop(ANSWER),
      ...clockAt('2026-11-20T09:00:30Z'),
    });
    const ask = JSON.stringify({
      type: 'user',
      uuid: 'u-0100-again',
      timestamp: '2026-11-20T09:10:00.000Z',
      message: { role: 'user', content: 'And the other test?' },
    });
    fs.appendFileSync(c.transcript, `${REST}${ask}\n`);
    const again = await runCapture(c.server, c.transcript, c.stateDir, {
      ...stop(ANSWER),
      ...clockAt('2026-11-20T09:10:30Z'),
    });
    expect(again).toMatchObject({ sent: 2, inserted: 2 });
    const turns = await c.turns();
    expect(turns.map((t) => t.sourceId).slice(-2)).toEqual([
      'u-0100-again',
      expect.stringMatching(/^stop:s-1:/),
    ]);
    expect(turns.filter((t) => t.content === ANSWER)).toHaveLength(2);
  });
});
