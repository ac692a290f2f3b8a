import { createHash } from 'node:crypto';
import type { TurnPayload } from './api-client.js';
import type { MappedLine } from './batches.js';
import type { AnswerMemo } from './state-store.js';
import { truncateContent } from './truncate.js';

// Claude Code's `Stop` hook passes the final answer (`last_assistant_message`), which the transcript
// may not hold yet when the hook runs. Capture sends it with that run, under its own sourceId, and then
// makes sure the transcript's line for the same answer, read by a later run, is not sent a second time.
// The rule: per prompt (between two user turns), an answer whose text (whitespace collapsed) equals
// the last one sent is the same answer. docs/decisions.md, "The final answer from the Stop hook".

export function answerHash(text: string): string {
  return createHash('sha256').update(text.replace(/\s+/g, ' ').trim()).digest('hex');
}

export interface TrackedLines {
  lines: MappedLine[];
  /** The memo as it stands once everything up to `offset` (a line end) is sent. */
  memoAt(offset: number): AnswerMemo | null;
}

/**
 * Walks the new lines in file order: the transcript's copy of an answer already sent from the hook (the
 * awaited echo) is dropped; every assistant answer becomes the memo's last answer; a user turn starts a
 * new prompt, so the memo, and an echo still awaited, are forgotten.
 */
export function trackAnswers(lines: readonly MappedLine[], start: AnswerMemo | null): TrackedLines {
  let memo = start;
  const snapshots: Array<{ end: number; memo: AnswerMemo | null }> = [];
  const out = lines.map((line): MappedLine => {
    let kept = line;
    const turn = line.turn;
    if (turn?.role === 'user') {
      memo = null;
    } else if (turn && turn.toolUseOnly !== true) {
      const hash = answerHash(turn.content);
      if (memo?.echo === hash) {
        kept = { ...line, turn: null };
        memo = { hash, echo: null };
      } else {
        memo = { hash, echo: memo?.echo ?? null };
      }
    }
    snapshots.push({ end: line.end, memo });
    return kept;
  });
  return {
    lines: out,
    memoAt(offset) {
      let found = start;
      for (const snapshot of snapshots) {
        if (snapshot.end > offset) break;
        found = snapshot.memo;
      }
      return found;
    },
  };
}

/**
 * The hook's final answer as a turn, unless it is the answer already sent for this prompt. Its sourceId
 * names the session and the transcript offset it was sent at, so the same text answered to a later
 * prompt is a new turn, and a second run at the same point is recognised by the server as a duplicate.
 */
export function hookAnswerTurn(
  message: string,
  memo: AnswerMemo | null,
  at: { source: TurnPayload['source']; sessionId: string | null; offset: number; now: number },
): { turn: TurnPayload; memo: AnswerMemo } | null {
  if (message.trim() === '') return null;
  const hash = answerHash(message);
  if (memo?.hash === hash || memo?.echo === hash) return null;
  const session = (at.sessionId ?? 'session').slice(0, 100);
  return {
    turn: {
      source: at.source,
      sourceId: `stop:${session}:${at.offset}:${hash.slice(0, 16)}`,
      role: 'assistant',
      content: truncateContent(message),
      capturedAt: new Date(at.now).toISOString(),
    },
    memo: { hash, echo: hash },
  };
}
