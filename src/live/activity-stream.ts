import { activityIdBounds } from '../db/repositories/activity-stream.js';
import { boardExists } from '../db/repositories/boards.js';
import { requireBoardPermission } from '../domain/access.js';
import { decodeActivityCursor, encodeActivityCursor } from '../domain/activities/activity-cursor.js';
import type { StreamEvent } from '../domain/activities/event-payload.js';
import type { Actor } from '../domain/actor.js';
import { DomainError, invalid, notFound } from '../domain/errors.js';
import type { ServiceDeps } from '../domain/services.js';
import { ActivityFollower, type CurrentActor } from './activity-stream-follower.js';
import { OrderedActivityReader, type ReaderTiming } from './activity-stream-reader.js';
import { Wakeup } from './activity-stream-wakeup.js';
import type { ChangeListener } from './change-feed.js';

export type { StreamEvent } from '../domain/activities/event-payload.js';
export type { CurrentActor } from './activity-stream-follower.js';

/** What the activity stream needs of the change feed: "something committed", from every instance. */
export interface CommitSource {
  subscribeAll(listener: ChangeListener): () => void;
  /** Resolves once changes are being heard (the PostgreSQL LISTEN connection is up). */
  ready(): Promise<void>;
}

export interface ActivityStreamOptions extends ReaderTiming {
  /** How often an open stream re-checks its key (a revoked key's stream ends). Default 500 ms. */
  keyCheckMs?: number;
  /** Read again this often without a notification (one lost in a crash, a CLI's SQLite write). Default 5 s. */
  safetyPollMs?: number;
  /** How soon a read held back by a commit in flight is tried again. Default 20 ms. */
  gapRetryMs?: number;
}

/** Where a stream starts: after a cursor (from `Last-Event-ID` or `?after=`, named by `afterField`), or now. */
export interface StreamRequest {
  after: string | null;
  afterField: string;
  /** Only this board's events. */
  boardId: string | null;
}

export interface WaitRequest extends StreamRequest {
  /** How long to wait for an event when none is newer than the cursor: 0..30 000 ms. */
  waitMs: number;
  /** At most this many events in the answer: 1..1000. */
  limit: number;
  /** Stops the wait early (the client went away, the server is closing): answers what there is. */
  signal?: AbortSignal;
}

/** The long poll's answer: the events, and the cursor to pass next (the last event's, or the one given). */
export interface EventPage {
  data: StreamEvent[];
  cursor: string;
}

export const MAX_WAIT_MS = 30_000;
export const MAX_EVENTS_PER_PAGE = 1000;
/** Activities read at a time by a stream (every board's; the caller's are a subset). */
const BATCH = 500;

/**
 * The activity stream of integrations (`GET /api/ext/v1/events`): every board's committed activity that
 * the caller may read, in commit order, exactly once from a cursor (see OrderedActivityReader), as
 * server-sent events (`open`) or a long poll (`waitForEvents`). A consumer of the activity like the
 * board streams: it follows the change feed, which hears every instance's commits.
 */
export class ActivityStreamService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly feed: CommitSource,
    private readonly options: ActivityStreamOptions = {},
  ) {}

  /**
   * Opens a stream; `send` is called in order, never concurrently. `onEnd` is called once when the
   * stream ends by itself: the key was revoked (`revoked`), or a read failed (`failed`; the client
   * resumes from its last event). `close()` on the result stops it.
   */
  async open(
    actor: Actor,
    request: StreamRequest,
    currentActor: CurrentActor,
    send: (event: StreamEvent) => void,
    onEnd: (reason: 'revoked' | 'failed', error?: unknown) => void,
  ): Promise<ActivityStream> {
    const follower = await this.follow(actor, request, currentActor);
    const stream = new ActivityStream(follower, send, onEnd, this.options);
    stream.start(this.feed);
    return stream;
  }

  /**
   * The long poll: the events after `after` (from now when null) that the caller may read, at once when
   * there are any; otherwise waits up to `waitMs` for one and answers `[]` if none came. The cursor is
   * the last event's, or `after` (the present position when none was given).
   */
  async waitForEvents(
    actor: Actor,
    request: WaitRequest,
    currentActor: CurrentActor = async () => actor,
  ): Promise<EventPage> {
    if (!Number.isInteger(request.waitMs) || request.waitMs < 0 || request.waitMs > MAX_WAIT_MS) {
      throw invalid('wait', `must be a whole number of seconds from 0 to ${MAX_WAIT_MS / 1000}.`);
    }
    if (!Number.isInteger(request.limit) || request.limit < 1 || request.limit > MAX_EVENTS_PER_PAGE) {
      throw invalid('limit', `must be an integer from 1 to ${MAX_EVENTS_PER_PAGE}.`);
    }
    const wakeup = new Wakeup();
    // Subscribed before the first read, so a commit during it wakes the wait instead of being missed.
    const unsubscribe = this.feed.subscribeAll(() => wakeup.ring());
    const stop = () => wakeup.ring();
    request.signal?.addEventListener('abort', stop);
    try {
      const follower = await this.follow(actor, request, currentActor);
      const start = request.after ?? encodeActivityCursor(follower.position);
      const deadline = Date.now() + request.waitMs;
      for (;;) {
        const pulled = await follower.pull(request.limit);
        const last = pulled.events[pulled.events.length - 1];
        if (last || pulled.ended) return { data: pulled.events, cursor: last?.cursor ?? start };
        if (pulled.more) continue;
        const left = deadline - Date.now();
        if (left <= 0 || request.signal?.aborted) return { data: [], cursor: start };
        const nap = pulled.blocked ? (this.options.gapRetryMs ?? 20) : (this.options.keyCheckMs ?? 500);
        await wakeup.wait(Math.min(left, nap));
      }
    } finally {
      unsubscribe();
      request.signal?.removeEventListener('abort', stop);
    }
  }

  private async follow(
    actor: Actor,
    request: StreamRequest,
    currentActor: CurrentActor,
  ): Promise<ActivityFollower> {
    const db = this.deps.database.kysely;
    if (request.boardId !== null) {
      requireBoardPermission(actor, request.boardId, 'read');
      if (!(await boardExists(db, request.boardId))) throw notFound('Board');
    }
    await this.feed.ready();
    const bounds = await activityIdBounds(db);
    let position = bounds.newest;
    if (request.after !== null) {
      position = decodeActivityCursor(request.after, request.afterField);
      if (position > bounds.newest)
        throw invalid(request.afterField, 'is not a cursor of this activity stream.');
      // Retention removes the oldest activities: those after the cursor are gone (ids have no holes
      // but failed commits', so a first stored id past the next one means removed history).
      if (bounds.oldest > position + 1) {
        throw new DomainError(
          'cursor_expired',
          `\`${request.afterField}\` is older than the activity history kept; open the stream again without a cursor.`,
        );
      }
    }
    const reader = new OrderedActivityReader(this.deps.database, position, Date.now, this.options);
    const follower = new ActivityFollower(this.deps, reader, currentActor, request.boardId);
    // The grants the stream opened with count for `board.deleted` (a deletion removes them).
    await follower.check();
    return follower;
  }
}

/** One open server-sent event stream: reads when the feed announces a commit, and on its timers. */
export class ActivityStream {
  private closed = false;
  private running = false;
  private again = false;
  private unsubscribe: (() => void) | null = null;
  private readonly timers: NodeJS.Timeout[] = [];
  private retry: NodeJS.Timeout | null = null;

  constructor(
    private readonly follower: ActivityFollower,
    private readonly send: (event: StreamEvent) => void,
    private readonly onEnd: (reason: 'revoked' | 'failed', error?: unknown) => void,
    private readonly options: ActivityStreamOptions,
  ) {}

  start(feed: CommitSource): void {
    this.unsubscribe = feed.subscribeAll(() => this.kick());
    // The key check needs no query while keys are unchanged (the authentication cache).
    this.every(this.options.keyCheckMs ?? 500, () => {
      this.follower.check().then(
        (verdict) => {
          if (verdict === 'revoked') this.end('revoked');
          else if (verdict === 'board-lost') this.kick();
        },
        (error: unknown) => this.end('failed', error),
      );
    });
    this.every(this.options.safetyPollMs ?? 5000, () => this.kick());
    this.kick();
  }

  close(): void {
    this.closed = true;
    this.unsubscribe?.();
    this.unsubscribe = null;
    for (const timer of this.timers) clearInterval(timer);
    if (this.retry) clearTimeout(this.retry);
  }

  private every(ms: number, work: () => void): void {
    const timer = setInterval(work, ms);
    timer.unref();
    this.timers.push(timer);
  }

  private end(reason: 'revoked' | 'failed', error?: unknown): void {
    if (this.closed) return;
    this.close();
    this.onEnd(reason, error);
  }

  /** Reads now, or once the read in progress is done: reads never overlap, so events stay in order. */
  private kick(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    this.pump()
      .catch((error: unknown) => this.end('failed', error))
      .finally(() => {
        this.running = false;
        // A commit announced after the last read's check.
        if (this.again) this.kick();
      });
  }

  private async pump(): Promise<void> {
    do {
      this.again = false;
      for (;;) {
        const pulled = await this.follower.pull(BATCH);
        if (this.closed) return;
        for (const event of pulled.events) this.send(event);
        if (pulled.ended) return this.end('revoked');
        if (pulled.blocked) this.retryIn(this.options.gapRetryMs ?? 20);
        if (!pulled.more) break;
      }
    } while (this.again && !this.closed);
  }

  private retryIn(ms: number): void {
    if (this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.kick();
    }, ms);
  }
}
