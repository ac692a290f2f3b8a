import type { Database } from '../db/database.js';
import { activitiesAfter, activityWritersFinished } from '../db/repositories/activity-stream.js';
import type { ActivityRow } from '../db/schema.js';

export interface ReadResult {
  /** The next activities (every board) in id order; no smaller id can appear after them. */
  rows: ActivityRow[];
  /** A missing id holds later activities back (a commit in flight): read again shortly. */
  blocked: boolean;
  /** The read was full: more activities may follow at once. */
  more: boolean;
}

export interface ReaderTiming {
  /** How long a gap may fill itself before the writers' barrier is asked. Default 100 ms. */
  gapGraceMs?: number;
  /** Longest the barrier waits for writers in progress (new writers queue meanwhile). Default 50 ms. */
  barrierTimeoutMs?: number;
  /** Least time between two barriers of one reader (each may hold writers up to its time-out). Default 250 ms. */
  barrierEveryMs?: number;
}

/**
 * Reads every board's activities in id order, each exactly once, from a position on.
 *
 * On PostgreSQL an activity's id is drawn by the statement that travels with COMMIT and becomes visible
 * when the commit is done, so two commits at the same moment can make id 6 visible before id 5. Handing
 * out 6 would lose 5 for a client that resumes after 6. So an activity is handed out only when every
 * smaller id is settled: visible, or known never to appear. A gap (a missing id below one read) is
 * almost always a commit in flight that fills it within milliseconds, so it is first just read again;
 * one that stays past `gapGraceMs` is settled by a barrier: once every transaction that had written an
 * activity has ended (db/repositories/activity-stream.ts), whatever is still missing below the ids
 * read before it never will appear (a failed commit). Nothing is given up on by time.
 *
 * On SQLite ids become visible in order (one writer at a time), so no read is ever held back.
 */
export class OrderedActivityReader {
  /** Every id at or below this is settled. */
  private settledUpTo: number;
  /** When the current gap was first seen. */
  private gapSince: number | null = null;
  private readonly gapGraceMs: number;
  private readonly barrierTimeoutMs: number;
  private readonly barrierEveryMs: number;
  private lastBarrier = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly database: Database,
    /** The last id handed out (or passed over): reading continues after it. */
    public position: number,
    private readonly now: () => number,
    timing: ReaderTiming = {},
  ) {
    this.settledUpTo = position;
    this.gapGraceMs = timing.gapGraceMs ?? 100;
    this.barrierTimeoutMs = timing.barrierTimeoutMs ?? 50;
    this.barrierEveryMs = timing.barrierEveryMs ?? 250;
  }

  async next(limit: number): Promise<ReadResult> {
    let rows = await activitiesAfter(this.database.kysely, this.position, limit);
    let ready = this.readyPrefix(rows);
    if (ready.length < rows.length) {
      const seen = Number(rows[rows.length - 1]?.id);
      if (this.database.dialect === 'sqlite') {
        // Ids become visible in order: a gap is permanent (none arise today; defensive).
        this.settledUpTo = seen;
      } else {
        const now = this.now();
        this.gapSince ??= now;
        const due = now - this.gapSince >= this.gapGraceMs && now - this.lastBarrier >= this.barrierEveryMs;
        if (due) this.lastBarrier = now;
        if (due && (await activityWritersFinished(this.database, this.barrierTimeoutMs))) {
          // Every id up to `seen` was drawn before the barrier, by a writer that has now ended.
          this.settledUpTo = Math.max(this.settledUpTo, seen);
          rows = await activitiesAfter(this.database.kysely, this.position, limit);
        }
      }
      ready = this.readyPrefix(rows);
    }
    const blocked = ready.length < rows.length;
    if (!blocked) this.gapSince = null;
    const newest = ready[ready.length - 1];
    if (newest) this.position = Number(newest.id);
    return { rows: ready, blocked, more: !blocked && rows.length === limit };
  }

  /** The rows from the position on up to the first unsettled gap. */
  private readyPrefix(rows: ActivityRow[]): ActivityRow[] {
    const ready: ActivityRow[] = [];
    let expected = this.position + 1;
    for (const row of rows) {
      const id = Number(row.id);
      if (id !== expected && id - 1 > this.settledUpTo) break;
      ready.push(row);
      expected = id + 1;
    }
    return ready;
  }
}
