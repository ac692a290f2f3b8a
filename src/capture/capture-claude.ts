import fs from 'node:fs/promises';
import type { Clock } from '../lib/time.js';
import type { CaptureApiClient, TaskRef } from './api-client.js';
import { batchLines } from './batches.js';
import type { CaptureLog } from './capture-log.js';
import { fingerprint, mapClaudeLine, readCompleteLines } from './claude-transcript.js';
import { deadlineAfter } from './deadline.js';
import type { HookInput } from './hook-input.js';
import { StateStore, type TranscriptState } from './state-store.js';
import { locateTask } from './task-locator.js';

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
}

function stoppedEarly(reason: string): CaptureOutcome {
  return { sent: 0, inserted: 0, offset: null, stopped: reason };
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
async function startOffset(file: string, state: TranscriptState | null, size: number): Promise<number> {
  if (!state || state.offset > size) return 0;
  return (await fingerprint(file, state.offset)) === state.fingerprint ? state.offset : 0;
}

/**
 * One run of the Claude Code hook: sends the transcript's complete lines past the saved offset as turns,
 * and saves the offset after each batch the server accepted. Never throws for an expected failure (no
 * task, server down, bad answer): it logs and leaves the rest for the next run.
 */
export async function captureClaude(options: CaptureOptions): Promise<CaptureOutcome> {
  const { input, env, log } = options;
  const where = `${input.hookEventName ?? 'run'} session ${input.sessionId ?? '?'}`;
  const baseUrl = env.LANEBOARD_URL;
  const apiKey = env.LANEBOARD_API_KEY;
  if (!baseUrl || !apiKey) {
    log.error(`${where}: LANEBOARD_URL and LANEBOARD_API_KEY must both be set; nothing sent.`);
    return stoppedEarly('not configured');
  }
  const located = locateTask({ option: options.taskOption, env: env.LANEBOARD_TASK, cwd: input.cwd });
  if (!located) {
    log.info(`${where}: no task found (--task, LANEBOARD_TASK, .laneboard/task, git branch); nothing sent.`);
    return stoppedEarly('no task');
  }

  const deadline = deadlineAfter(options.clock, options.budgetMs);
  const store = new StateStore(options.stateDir, options.clock);
  const release = await store.lock(input.transcriptPath, deadline);
  if (!release) {
    log.info(`${where}: another run holds the transcript; it, or the next run, sends the new lines.`);
    return stoppedEarly('locked');
  }
  let client: CaptureApiClient | null = null;
  try {
    const saved = await store.read(input.transcriptPath);
    let size: number;
    try {
      size = (await fs.stat(input.transcriptPath)).size;
    } catch {
      log.error(`${where}: cannot read the transcript ${input.transcriptPath}.`);
      return stoppedEarly('no transcript');
    }
    const start = await startOffset(input.transcriptPath, saved, size);
    if (saved && start !== saved.offset) {
      log.info(`${where}: transcript shrank or was rewritten; reading it again from the start.`);
    }
    const state: TranscriptState = {
      transcriptPath: input.transcriptPath,
      offset: start,
      fingerprint: saved?.fingerprint ?? '',
      task: saved?.task ?? null,
    };
    const commit = async (offset: number) => {
      state.offset = offset;
      state.fingerprint = await fingerprint(input.transcriptPath, offset);
      await store.write(state);
    };

    const { lines } = await readCompleteLines(input.transcriptPath, start);
    const batches = batchLines(lines, mapClaudeLine, start);
    if (batches.length === 0) return { sent: 0, inserted: 0, offset: start, stopped: null };

    // Loaded only now: a run with nothing new ends without loading the HTTP client (undici).
    const { CaptureApiClient, CaptureApiError } = await import('./api-client.js');
    const api = new CaptureApiClient(baseUrl, apiKey, deadline);
    client = api;

    let inserted = 0;
    let sent = 0;
    try {
      const task = await resolveTask(api, located.shortIds, state.task);
      if (!task) {
        log.error(
          `${where}: task ${located.shortIds.join(' or ')} (from ${located.origin}) not found with this key.`,
        );
        return { sent: 0, inserted: 0, offset: start, stopped: 'task not found' };
      }
      state.task = task;
      for (const batch of batches) {
        if (batch.turns.length > 0) {
          inserted += await api.postTurns(task, batch.turns);
          sent += batch.turns.length;
        }
        await commit(batch.end);
      }
      log.info(
        `${where}: task ${task.shortId}: ${sent} turns sent, ${inserted} new; offset ${state.offset}.`,
      );
      return { sent, inserted, offset: state.offset, stopped: null };
    } catch (error) {
      if (!(error instanceof CaptureApiError)) throw error;
      // A task that is gone (404) or no longer ours (403) is looked up again next time.
      if (error.status === 403 || error.status === 404) state.task = null;
      await commit(state.offset);
      log.error(`${where}: ${error.message} ${sent} turns sent before; the rest waits for the next run.`);
      return { sent, inserted, offset: state.offset, stopped: error.message };
    }
  } finally {
    await client?.close();
    await release();
  }
}
