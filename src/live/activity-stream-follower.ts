import { keyWithMembers } from '../db/repositories/api-keys.js';
import { boardExists } from '../db/repositories/boards.js';
import type { Activity } from '../domain/activities/activity-types.js';
import { STREAMED_TYPES, type StreamEvent, toStreamEvent } from '../domain/activities/event-payload.js';
import { type Actor, boardPermission, type MemberRef } from '../domain/actor.js';
import type { ServiceDeps } from '../domain/services.js';
import { toActivity } from '../domain/views/activities.js';
import type { OrderedActivityReader } from './activity-stream-reader.js';

/** The caller as it is now: the key looked up again (cached until keys change); null once revoked. */
export type CurrentActor = () => Promise<Actor | null>;

export interface Pulled {
  /** The next events the caller may read, in order. */
  events: StreamEvent[];
  /** Later activities are held back by a commit in flight: pull again shortly. */
  blocked: boolean;
  /** More may follow at once. */
  more: boolean;
  /** The key was revoked (or lost the board the stream is narrowed to): the stream ends. */
  ended: boolean;
}

/**
 * Turns the ordered activity of every board into the events one caller may read. Grants are checked on
 * every pull, with the key as it is now: a board whose grant is gone is filtered out from then on. A
 * board's own deletion removes its grants with it, so its last activities and `board.deleted` still
 * reach a caller that could read the board while this stream was open.
 */
export class ActivityFollower {
  private readonly keyPeople = new Map<string, MemberRef | null>();
  /** Boards the caller could read at some check during this stream (for `board.deleted`). */
  private readonly readable = new Set<string>();

  constructor(
    private readonly deps: ServiceDeps,
    private readonly reader: OrderedActivityReader,
    private readonly currentActor: CurrentActor,
    private readonly boardId: string | null,
  ) {}

  /** The last activity id passed (handed out or not the caller's). */
  get position(): number {
    return this.reader.position;
  }

  /**
   * Checks the caller as it is now: `revoked` (the key is gone), `board-lost` (a stream narrowed to a
   * board it can no longer read: a pull sends what is left, such as the board's deletion, then ends) or
   * `ok`.
   */
  async check(): Promise<'ok' | 'revoked' | 'board-lost'> {
    const actor = await this.currentActor();
    if (!actor) return 'revoked';
    this.noteGrants(actor);
    return this.boardId !== null && boardPermission(actor, this.boardId) === null ? 'board-lost' : 'ok';
  }

  async pull(limit: number): Promise<Pulled> {
    const read = await this.reader.next(limit);
    const actor = await this.currentActor();
    if (!actor) return { events: [], blocked: false, more: false, ended: true };
    this.noteGrants(actor);
    const events: StreamEvent[] = [];
    const deleted = new Map<string, boolean>();
    for (const row of read.rows) {
      if (!STREAMED_TYPES.has(row.type) || (this.boardId !== null && row.board_id !== this.boardId)) continue;
      const activity = toActivity(row);
      if (!(await this.mayRead(actor, activity, deleted))) continue;
      events.push(toStreamEvent(activity, await this.keyPerson(activity)));
    }
    // Narrowed to a board the key can no longer read: what it could still see is sent, then the end
    // (not while a commit in flight holds activities back: the board's deletion may be among them).
    const ended = this.boardId !== null && boardPermission(actor, this.boardId) === null && !read.blocked;
    return { events, blocked: read.blocked, more: read.more, ended };
  }

  private noteGrants(actor: Actor): void {
    if (actor.kind === 'api_key' && !actor.allBoards)
      for (const board of actor.grants.keys()) this.readable.add(board);
  }

  /**
   * The key's grant now, or, for a board it could read during this stream and whose grant is gone: the
   * board was deleted (which removes its grants, unlike a revocation), so its activities up to the
   * deletion still pass. `deleted` remembers, per pull, which such boards are gone.
   */
  private async mayRead(actor: Actor, activity: Activity, deleted: Map<string, boolean>): Promise<boolean> {
    const boardId = activity.boardId;
    if (boardPermission(actor, boardId) !== null) {
      this.readable.add(boardId);
      return true;
    }
    if (!this.readable.has(boardId)) return false;
    if (!deleted.has(boardId)) deleted.set(boardId, !(await boardExists(this.deps.database.kysely, boardId)));
    return deleted.get(boardId) === true;
  }

  /** The person a key belongs to, as webhook payloads name them; looked up once per key and stream. */
  private async keyPerson(activity: Activity): Promise<MemberRef | null> {
    const keyId = activity.actor.kind === 'api_key' ? activity.actor.id : null;
    if (keyId === null) return null;
    if (!this.keyPeople.has(keyId)) {
      const key = await keyWithMembers(this.deps.database.kysely, keyId);
      this.keyPeople.set(keyId, key?.person ?? null);
    }
    return this.keyPeople.get(keyId) ?? null;
  }
}
