import {
  boardActivitiesFrom,
  boardLanes,
  findBoardActivity,
  firstActivityIdSince,
  latestBoardActivityId,
  oldestBoardActivity,
} from '../db/repositories/board-events.js';
import { readCardRows } from '../db/repositories/board-view.js';
import type { ActivityRow } from '../db/schema.js';
import type { Activity } from '../domain/activities/activity-types.js';
import type { ServiceDeps } from '../domain/services.js';
import { toActivity } from '../domain/views/activities.js';
import { agentSince, type Card, toCards } from '../domain/views/cards.js';
import { toLaneView } from '../domain/views/lanes.js';
import type { ChangeSource, LiveActivity, LiveEvent } from './board-events.js';

const BATCH = 200;

export class BoardStream {
  /** Ids sent, with their activity's time, kept for a while to skip them when re-read. */
  private readonly sent = new Map<number, number>();
  private queue: Promise<void> = Promise.resolve();
  private unsubscribe: (() => void) | null = null;
  private closed = false;
  /** The newest id sent (or the position the stream started at). */
  private highest = 0;
  /**
   * A stream opened "from now on": the newest id when it opened. Notifications can arrive late (after
   * commit, and PostgreSQL's are gathered for a few milliseconds), so one for a change the opening
   * view already showed must not send it again. Ids are drawn at commit on PostgreSQL, so a smaller id
   * committing after the stream opened is not a real case here.
   */
  private floor = 0;
  private readonly windowMs: number;
  private readonly maxCatchUp: number;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly boardId: string,
    private readonly send: (event: LiveEvent) => void,
    private readonly onError: (error: unknown) => void,
    limits: { windowMs: number; maxCatchUp: number },
  ) {
    this.windowMs = limits.windowMs;
    this.maxCatchUp = limits.maxCatchUp;
  }

  async start(after: number | null, feed: ChangeSource): Promise<void> {
    // Subscribe before the first read, so a change committed meanwhile is announced (and skipped if
    // the read already sent it).
    this.unsubscribe = feed.subscribe(this.boardId, (change) => {
      void this.enqueue(() =>
        change.fromId === null ? this.pullWindow() : this.pull(Math.max(change.fromId, this.floor + 1)),
      );
    });
    await this.enqueue(() => this.catchUp(after));
  }

  close(): void {
    this.closed = true;
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /**
   * Runs reads one after another. A failed read closes the stream and reports it: the client reconnects
   * with its Last-Event-ID and loses nothing.
   */
  private enqueue(work: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(async () => {
      if (this.closed) return;
      try {
        await work();
      } catch (error) {
        this.close();
        this.onError(error);
      }
    });
    return this.queue;
  }

  private async catchUp(after: number | null): Promise<void> {
    const db = this.deps.database.kysely;
    const latest = await latestBoardActivityId(db, this.boardId);
    if (after === null) {
      this.highest = latest;
      this.floor = latest;
      return;
    }
    const from = await this.resumePoint(after, latest);
    if (from === null) return this.reset(latest);
    const pending = await boardActivitiesFrom(db, this.boardId, from, this.maxCatchUp + 1);
    if (pending.length > this.maxCatchUp) return this.reset(latest);
    this.highest = after;
    await this.deliver(pending);
    if (pending.length === this.maxCatchUp + 1) await this.pull(Number(pending[pending.length - 1]?.id));
  }

  /**
   * Where to read from to resume after `after`: the next id, or on PostgreSQL the start of the commit
   * window before it. Null when `after` is not a position of this board's stored history (unknown,
   * from the future, or removed by retention): the client must reload.
   */
  private async resumePoint(after: number, latest: number): Promise<number | null> {
    const db = this.deps.database.kysely;
    if (after > latest) return null;
    if (after === 0) {
      // A board with no history yet, or whose history still starts with its creation: nothing is lost.
      const oldest = await oldestBoardActivity(db, this.boardId);
      return oldest === undefined || oldest.type === 'board.created' ? 0 : null;
    }
    const known = await findBoardActivity(db, this.boardId, after);
    if (!known) return null;
    if (this.windowMs === 0) return after + 1;
    const since = new Date(Date.parse(known.created_at) - this.windowMs).toISOString();
    return Math.min(after + 1, (await firstActivityIdSince(db, since)) ?? after + 1);
  }

  private reset(latest: number): void {
    this.highest = latest;
    this.send({ id: latest, type: 'reset', data: { activityId: latest } });
  }

  /** After the feed lost track (PostgreSQL listener reconnected): re-read the commit window. */
  private async pullWindow(): Promise<void> {
    const newestSent = Math.max(0, ...this.sent.values());
    const since = new Date((newestSent || this.deps.clock.now()) - Math.max(this.windowMs, 1000));
    const first = await firstActivityIdSince(this.deps.database.kysely, since.toISOString());
    await this.pull(Math.min(this.highest + 1, first ?? this.highest + 1));
  }

  /** Sends every committed activity of the board from `fromId` on that was not sent yet. */
  private async pull(fromId: number): Promise<void> {
    let from = fromId;
    for (;;) {
      const rows = await boardActivitiesFrom(this.deps.database.kysely, this.boardId, from, BATCH);
      await this.deliver(rows);
      const last = rows[rows.length - 1];
      if (rows.length < BATCH || !last || this.closed) return;
      from = Number(last.id) + 1;
    }
  }

  private async deliver(rows: ActivityRow[]): Promise<void> {
    const fresh = rows.filter((row) => !this.sent.has(Number(row.id)));
    if (fresh.length === 0 || this.closed) return;
    const activities = fresh.map(toActivity);
    const enriched = await this.enrich(activities);
    for (const activity of enriched) {
      if (this.closed) return;
      this.sent.set(activity.id, Date.parse(activity.createdAt));
      this.highest = Math.max(this.highest, activity.id);
      this.send({ id: activity.id, type: activity.type, data: activity });
    }
    this.forgetOld();
  }

  /** Adds the cards of the tasks and the lanes the activities touched: two reads per batch at most. */
  private async enrich(activities: Activity[]): Promise<LiveActivity[]> {
    const db = this.deps.database.kysely;
    const taskIds = [...new Set(activities.flatMap((a) => (a.taskId ? [a.taskId] : [])))];
    const since = agentSince(this.deps.clock.now());
    const cards = new Map<string, Card>();
    if (taskIds.length > 0) {
      const rows = await readCardRows(db, {
        boardId: this.boardId,
        includeArchived: true,
        taskIds,
        agentSince: since,
      });
      for (const card of toCards(rows)) cards.set(card.id, card);
    }
    const lanes = activities.some((a) => a.type.startsWith('lane.'))
      ? (await boardLanes(db, this.boardId)).map(toLaneView)
      : undefined;
    return activities.map((activity) => ({
      ...activity,
      ...(activity.taskId ? { card: cards.get(activity.taskId) ?? null } : {}),
      ...(lanes && activity.type.startsWith('lane.') ? { lanes } : {}),
    }));
  }

  /** Ids older than twice the commit window cannot be announced again; stop remembering them. */
  private forgetOld(): void {
    if (this.sent.size < 1000) return;
    const newest = Math.max(...this.sent.values());
    const horizon = newest - 2 * Math.max(this.windowMs, 1000);
    for (const [id, at] of this.sent) if (at < horizon) this.sent.delete(id);
  }
}
