import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Clock } from '../lib/time.js';
import type { TaskRef } from './api-client.js';
import type { Deadline } from './deadline.js';

/** The final answer capture sent last, to keep one answer from becoming two turns (final-answer.ts). */
export interface AnswerMemo {
  /** Hash of the last answer sent for the current prompt (its text, whitespace collapsed). */
  hash: string;
  /** Hash of an answer sent from the hook's input whose transcript line has not been read yet. */
  echo: string | null;
}

/** What `capture status` shows of a transcript's last run. */
export interface RunRecord {
  source?: 'claude' | 'copilot';
  sessionId?: string | null;
  /** When the last run ended (ISO 8601). */
  lastRunAt?: string;
  /** The last run's log line, without time and prefix. */
  lastRun?: string;
  /** The last turn the server accepted from this transcript. */
  lastTurn?: { sourceId: string; role: string; capturedAt: string } | null;
  /** Why the last failing run failed; cleared by a run that completes. */
  lastError?: { at: string; message: string } | null;
}

/** What is remembered per transcript between runs. */
export interface TranscriptState extends RunRecord {
  transcriptPath: string;
  /** Bytes of the transcript already sent (always at a line boundary). */
  offset: number;
  /** `fingerprint(transcript, offset)`, to notice a rewrite that did not shrink the file. */
  fingerprint: string;
  /** The task the shortId resolved to, so a later run needs no lookup. */
  task: TaskRef | null;
  answer?: AnswerMemo | null;
}

/** `LANEBOARD_CAPTURE_STATE_DIR`, else `~/.laneboard/capture`. */
export function defaultStateDir(env: NodeJS.ProcessEnv): string {
  return env.LANEBOARD_CAPTURE_STATE_DIR || path.join(os.homedir(), '.laneboard', 'capture');
}

const LOCK_POLL_MS = 50;

/**
 * One small JSON file per transcript (named by a hash of its path), so sessions never share a file, and
 * a lock file beside it so two runs on the same transcript (Stop and SessionEnd close together) take
 * turns. Writes go to a temporary file renamed over the old one: a reader sees the old or the new state,
 * never half of one.
 */
export class StateStore {
  constructor(
    private readonly dir: string,
    private readonly clock: Clock,
    /** A lock older than this is left over from a run that was killed, and is broken. */
    private readonly lockStaleMs = 60_000,
  ) {}

  private base(transcriptPath: string): string {
    const name = createHash('sha256').update(path.resolve(transcriptPath)).digest('hex').slice(0, 32);
    return path.join(this.dir, name);
  }

  async read(transcriptPath: string): Promise<TranscriptState | null> {
    try {
      const parsed = JSON.parse(
        await fs.readFile(`${this.base(transcriptPath)}.json`, 'utf8'),
      ) as TranscriptState;
      if (typeof parsed.offset !== 'number' || parsed.offset < 0 || typeof parsed.fingerprint !== 'string')
        return null;
      return { ...parsed, task: parsed.task ?? null };
    } catch {
      return null; // none yet, or unreadable: start from the beginning (duplicates are ignored by the API)
    }
  }

  /** Every transcript's state, the most recent run first (states never run are last). */
  async list(): Promise<TranscriptState[]> {
    let names: string[];
    try {
      names = await fs.readdir(this.dir);
    } catch {
      return [];
    }
    const states: TranscriptState[] = [];
    for (const name of names.filter((n) => /^[0-9a-f]{32}\.json$/.test(n))) {
      try {
        const parsed = JSON.parse(await fs.readFile(path.join(this.dir, name), 'utf8')) as TranscriptState;
        if (typeof parsed.transcriptPath === 'string') states.push(parsed);
      } catch {
        // being replaced, or damaged: not shown
      }
    }
    return states.sort((a, b) => (b.lastRunAt ?? '').localeCompare(a.lastRunAt ?? ''));
  }

  async write(state: TranscriptState): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const target = `${this.base(state.transcriptPath)}.json`;
    const temp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    await fs.writeFile(temp, `${JSON.stringify(state)}\n`, { mode: 0o600 });
    await fs.rename(temp, target);
  }

  /**
   * Takes the transcript's lock, waiting while another run holds it, but no longer than `deadline`.
   * Returns the release function, or null when the lock could not be had in time.
   */
  async lock(transcriptPath: string, deadline: Deadline): Promise<(() => Promise<void>) | null> {
    await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const lockFile = `${this.base(transcriptPath)}.lock`;
    for (;;) {
      try {
        const handle = await fs.open(lockFile, 'wx', 0o600);
        await handle.writeFile(`${process.pid}\n`);
        await handle.close();
        return () => fs.rm(lockFile, { force: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      if (await this.isStale(lockFile)) {
        await fs.rm(lockFile, { force: true });
        continue;
      }
      if (deadline.remainingMs() < LOCK_POLL_MS) return null;
      await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
    }
  }

  private async isStale(lockFile: string): Promise<boolean> {
    try {
      const { mtimeMs } = await fs.stat(lockFile);
      return this.clock.now() - mtimeMs > this.lockStaleMs;
    } catch {
      return false; // just released: try again
    }
  }
}
