import fs from 'node:fs/promises';
import type { Clock } from '../lib/time.js';
import type { CaptureApiClient, TaskRef, TurnPayload } from './api-client.js';
import { type Batch, batchLines, type LineMapping, type MappedLine } from './batches.js';
import type { CaptureLog } from './capture-log.js';
import { type Deadline, deadlineAfter } from './deadline.js';
import { hookAnswerTurn, trackAnswers } from './final-answer.js';
import type { HookInput } from './hook-input.js';
import { StateStore, type TranscriptState } from './state-store.js';
import { locateTask, type TaskCandidates } from './task-locator.js';
import { fingerprint, readCompleteLines } from './transcript-file.js';

/** What differs between agents: the turns' source and how a line of their log becomes a turn. */
export interface TranscriptFormat {
  source: TurnPayload['source'];
  classify(text: string): LineMapping;
}

export interface CaptureOptions {
  input: HookInput;
  /** `--task`. */
  taskOption?: string | undefined;
  env: NodeJS.ProcessEnv;
  stateDir: string;
  clock: Clock;
  /** The whole run, requests and waiting for the lock included. */
  budgetMs: number;
  log: CaptureLog;
}

export interface CaptureOutcome {
  /** Turns sent in batches the server accepted. */
  sent: number;
  /** Of those, the turns the server had not stored before. */
  inserted: number;
  /** Transcript offset after the run (what the next run starts from); null if it stopped before reading it. */
  offset: number | null;
  /** Why the run stopped early, or null when everything complete was sent. */
  stopped: string | null;
  /** Lines of the part read that were skipped as malformed. */
  malformed: number;
}

/** How a run ended: the outcome, its log line (without the prefix) and whether it is an error. */
interface Report {
  outcome: CaptureOutcome;
  message: string;
  failed: boolean;
  /** A failure that is an error in the log; others (no task) are logged as info but still shown by status. */
  level: 'info' | 'error';
}

function stoppedEarly(reason: string, message: string, level: Report['level'] = 'error'): Report {
  return {
    outcome: { sent: 0, inserted: 0, offset: null, stopped: reason, malformed: 0 },
    message,
    failed: true,
    level,
  };
}

async function resolveTask(
  client: CaptureApiClient,
  shortIds: readonly string[],
  cached: TaskRef | null,
): Promise<TaskRef | null> {
  if (cached && shortIds.includes(cached.shortId.toLowerCase())) return cached;
  for (const shortId of shortIds) {
    const task = await client.findTask(shortId);
    if (task) return task;
  }
  return null;
}

/** Where to start: the saved offset, unless the file shrank below it or the part before it changed. */
async function startOffset(file: string, state: TranscriptState, size: number): Promise<number> {
  if (state.offset > size) return 0;
  return (await fingerprint(file, state.offset)) === state.fingerprint ? state.offset : 0;
}

function malformedNote(count: number): string {
  return count === 0 ? '' : `, ${count} malformed line${count === 1 ? '' : 's'} skipped`;
}

/**
 * One hook run for any agent whose log is JSONL: sends the complete lines past the saved offset as turns
 * and saves the offset after each batch the server accepted. Runs on one transcript take turns (a lock);
 * each run writes exactly one log line and records its result in the transcript's state for `capture
 * status`. Never throws for an expected failure (no task, server down, bad answer): what was not sent is
 * sent by the next run.
 */
export async function captureTranscript(
  format: TranscriptFormat,
  options: CaptureOptions,
): Promise<CaptureOutcome> {
  const { input, log, clock } = options;
  const where = `${format.source} ${input.hookEventName ?? 'run'} session ${input.sessionId ?? '?'}`;
  const deadline = deadlineAfter(clock, options.budgetMs);
  const store = new StateStore(options.stateDir, clock);
  const release = await store.lock(input.transcriptPath, deadline);
  if (!release) {
    // Not recorded in the state: that run holds it, and records its own result.
    log.info(`${where}: another run holds the transcript; it, or the next run, sends the new lines.`);
    return { sent: 0, inserted: 0, offset: null, stopped: 'locked', malformed: 0 };
  }
  try {
    const saved = await store.read(input.transcriptPath);
    const state: TranscriptState = saved ?? {
      transcriptPath: input.transcriptPath,
      offset: 0,
      fingerprint: '',
      task: null,
    };
    state.source = format.source;
    state.sessionId = input.sessionId ?? state.sessionId ?? null;
    const report = await attempt(format, options, store, state, deadline);
    const at = new Date(clock.now()).toISOString();
    state.lastRunAt = at;
    state.lastRun = report.message;
    state.lastError = report.failed ? { at, message: report.message } : null;
    await store.write(state);
    log[report.level](`${where}: ${report.message}`);
    return report.outcome;
  } finally {
    await release();
  }
}

async function attempt(
  format: TranscriptFormat,
  options: CaptureOptions,
  store: StateStore,
  state: TranscriptState,
  deadline: Deadline,
): Promise<Report> {
  const { input, env } = options;
  const baseUrl = env.LANEBOARD_URL;
  const apiKey = env.LANEBOARD_API_KEY;
  if (!baseUrl || !apiKey) {
    return stoppedEarly(
      'not configured',
      'LANEBOARD_URL and LANEBOARD_API_KEY must both be set; nothing sent.',
    );
  }
  const located = locateTask({ option: options.taskOption, env: env.LANEBOARD_TASK, cwd: input.cwd });
  if (!located) {
    const message = 'no task found (--task, LANEBOARD_TASK, .laneboard/task, git branch); nothing sent.';
    return stoppedEarly('no task', message, 'info');
  }
  let size: number;
  try {
    size = (await fs.stat(input.transcriptPath)).size;
  } catch {
    return stoppedEarly('no transcript', `cannot read the transcript ${input.transcriptPath}; nothing sent.`);
  }
  const file = input.transcriptPath;
  const start = await startOffset(file, state, size);
  const rewritten = state.offset > 0 && start !== state.offset;
  const note = rewritten ? 'transcript shrank or was rewritten, read again from the start; ' : '';
  if (rewritten) state.answer = null;
  state.offset = start;

  const { lines } = await readCompleteLines(file, start);
  let malformed = 0;
  const mapped: MappedLine[] = lines.map((line) => {
    const mapping = format.classify(line.text);
    if (mapping === 'malformed') malformed++;
    return { turn: typeof mapping === 'string' ? null : mapping, end: line.end };
  });
  const tracked = trackAnswers(mapped, state.answer ?? null);
  const batches = batchLines(tracked.lines, start);
  const commit = async (batch: Pick<Batch, 'end'> & { turns: readonly TurnPayload[] }) => {
    state.offset = batch.end;
    state.fingerprint = await fingerprint(file, batch.end);
    state.answer = tracked.memoAt(batch.end);
    const last = batch.turns.at(-1);
    if (last) state.lastTurn = { sourceId: last.sourceId, role: last.role, capturedAt: last.capturedAt };
    await store.write(state);
  };
  const endOffset = batches.at(-1)?.end ?? start;
  const answer = input.lastAssistantMessage
    ? hookAnswerTurn(input.lastAssistantMessage, tracked.memoAt(endOffset), {
        source: format.source,
        sessionId: input.sessionId,
        offset: endOffset,
        now: options.clock.now(),
      })
    : null;
  const outcome: CaptureOutcome = { sent: 0, inserted: 0, offset: start, stopped: null, malformed };

  if (!answer && batches.every((batch) => batch.turns.length === 0)) {
    // Nothing to send: no request, and no HTTP client loaded (a run with nothing new stays cheap).
    const last = batches.at(-1);
    if (last) await commit(last);
    outcome.offset = state.offset;
    if (start === 0 && malformed > 0 && malformed === lines.length) {
      // Not one line of the format from the file's start: the agent writes another kind of transcript.
      const message = `not a ${format.source} transcript: ${malformed} malformed lines and nothing else; nothing sent.`;
      return { outcome, message, failed: true, level: 'error' };
    }
    const message = `${note}nothing new${malformedNote(malformed)}; offset ${state.offset}.`;
    return { outcome, message, failed: false, level: 'info' };
  }

  const { CaptureApiClient, CaptureApiError } = await import('./api-client.js');
  const api = new CaptureApiClient(baseUrl, apiKey, deadline);
  try {
    const task = await resolveTask(api, located.shortIds, state.task);
    if (!task) {
      const message = `${notFound(located)} not found with this key; nothing sent.`;
      return {
        ...stoppedEarly('task not found', message),
        outcome: { ...outcome, stopped: 'task not found' },
      };
    }
    state.task = task;
    for (const batch of batches) {
      if (batch.turns.length > 0) {
        outcome.inserted += await api.postTurns(task, batch.turns);
        outcome.sent += batch.turns.length;
      }
      await commit(batch);
    }
    let answerNote = '';
    if (answer) {
      outcome.inserted += await api.postTurns(task, [answer.turn]);
      outcome.sent += 1;
      state.answer = answer.memo;
      state.lastTurn = {
        sourceId: answer.turn.sourceId,
        role: 'assistant',
        capturedAt: answer.turn.capturedAt,
      };
      await store.write(state);
      answerNote = ' (the final answer from the hook input)';
    }
    outcome.offset = state.offset;
    const sent = `${outcome.sent} turns sent${answerNote}, ${outcome.inserted} new`;
    const message = `${note}task ${task.shortId}: ${sent}${malformedNote(malformed)}; offset ${state.offset}.`;
    return { outcome, message, failed: false, level: 'info' };
  } catch (error) {
    if (!(error instanceof CaptureApiError)) throw error;
    // A task that is gone (404) or no longer ours (403) is looked up again next time.
    if (error.status === 403 || error.status === 404) state.task = null;
    outcome.offset = state.offset;
    outcome.stopped = error.message;
    const message = `${note}${error.message} ${outcome.sent} turns sent before; the rest waits for the next run.`;
    return { outcome, message, failed: true, level: 'error' };
  } finally {
    await api.close();
  }
}

function notFound(located: TaskCandidates): string {
  return `task ${located.shortIds.join(' or ')} (from ${located.origin})`;
}
