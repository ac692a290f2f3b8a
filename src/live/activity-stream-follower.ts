import { keyWithMembers } from '../db/repositories/api-keys.js';
import type { Activity } from '../domain/activities/activity-types.js';
import { type StreamEvent, toStreamEvent } from '../domain/activities/event-payload.js';
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
 * board's own deletion removes its grants with it, so `board.deleted` still reaches a caller that could
 * read the board while this stream was open.
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

  /** The caller as it is now, or null when it may no longer follow this stream. */
  async allowed(): Promise<Actor | null> {
    const actor = await this.currentActor();
    if (!actor) return null;
    this.noteGrants(actor);
    return this.boardId !== null && boardPermission(actor, this.boardId) === null ? null : actor;
  }

  async pull(limit: number): Promise<Pulled> {
    const read = await this.reader.next(limit);
    const actor = await this.currentActor();
    if (!actor) return { events: [], blocked: false, more: false, ended: true };
    this.noteGrants(actor);
    const events: StreamEvent[] = [];
    for (const row of read.rows) {
      if (this.boardId !== null && row.board_id !== this.boardId) continue;
      const activity = toActivity(row);
      if (!this.mayRead(actor, activity)) continue;
      events.push(toStreamEvent(activity, await this.keyPerson(activity)));
    }
    // Narrowed to a board the key can no longer read: what it could still see is sent, then the end.
    const ended = this.boardId !== null && boardPermission(actor, this.boardId) === null;
    return { events, blocked: read.blocked, more: read.more, ended };
  }

  private noteGrants(actor: Actor): void {
    if (actor.kind === 'api_key' && !actor.allBoards)
      for (const board of actor.grants.keys()) this.readable.add(board);
  }

  private mayRead(actor: Actor, activity: Activity): boolean {
    if (boardPermission(actor, activity.boardId) !== null) {
      this.readable.add(activity.boardId);
      return true;
    }
    return activity.type === 'board.deleted' && this.readable.has(activity.boardId);
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
