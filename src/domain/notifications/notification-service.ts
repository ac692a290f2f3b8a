import { boardExists } from '../../db/repositories/boards.js';
import {
  listNotifications,
  markAllRead,
  markRead,
  muteBoard,
  mutedBoards,
  type NotificationKind,
  type NotificationListRow,
  unmuteBoard,
  unreadCount,
} from '../../db/repositories/notifications.js';
import { isoNow } from '../../lib/time.js';
import type { Actor } from '../actor.js';
import { DomainError, invalid, notFound } from '../errors.js';
import type { ServiceDeps } from '../services.js';

/** One line of a person's inbox. */
export interface Notification {
  id: string;
  kind: NotificationKind;
  board: { id: string; name: string };
  task: { id: string; shortId: string; title: string };
  commentId: string | null;
  actor: { kind: string; name: string };
  createdAt: string;
  read: boolean;
}

export interface NotificationPage {
  data: Notification[];
  /** Pass as `before` for the next (older) page; null on the last page. */
  nextCursor: string | null;
  unread: number;
}

export interface NotificationServiceOptions {
  /** A person's inbox changed here (read marks): their other tabs re-read the count. */
  onInboxChanged?: (personIds: readonly string[]) => void;
}

const MAX_LIMIT = 100;
const CURSOR = /^ntf_[0-9a-zA-Z]{22}$/;

/**
 * The signed-in person's notifications and board mutes (the web UI's inbox). Each person sees only
 * their own: another person's notification is "not found", like one that does not exist.
 */
export class NotificationService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly options: NotificationServiceOptions = {},
  ) {}

  async list(
    actor: Actor,
    query: { before?: string; limit?: number; unread?: boolean } = {},
  ): Promise<NotificationPage> {
    const personId = personOf(actor);
    const limit = query.limit ?? 30;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
      throw invalid('limit', `must be an integer from 1 to ${MAX_LIMIT}.`);
    }
    if (query.before !== undefined && !CURSOR.test(query.before)) {
      throw invalid('before', 'must be a cursor from a previous page (`nextCursor`).');
    }
    const db = this.deps.database.kysely;
    const rows = await listNotifications(db, personId, {
      before: query.before ?? null,
      limit: limit + 1,
      unreadOnly: query.unread === true,
    });
    const page = rows.slice(0, limit);
    return {
      data: page.map(toNotification),
      nextCursor: rows.length > limit ? (page[page.length - 1]?.id ?? null) : null,
      unread: await unreadCount(db, personId),
    };
  }

  async unreadCount(actor: Actor): Promise<number> {
    return unreadCount(this.deps.database.kysely, personOf(actor));
  }

  /** Marks one notification read (again is fine); not_found for another person's. */
  async markRead(actor: Actor, id: string): Promise<void> {
    const personId = personOf(actor);
    const at = isoNow(this.deps.clock);
    if (!(await markRead(this.deps.database.kysely, personId, id, at))) throw notFound('Notification');
    this.options.onInboxChanged?.([personId]);
  }

  /** Marks all of the person's notifications read; returns how many were unread. */
  async markAllRead(actor: Actor): Promise<number> {
    const personId = personOf(actor);
    const count = await markAllRead(this.deps.database.kysely, personId, isoNow(this.deps.clock));
    if (count > 0) this.options.onInboxChanged?.([personId]);
    return count;
  }

  async mute(actor: Actor, boardId: string): Promise<void> {
    const personId = personOf(actor);
    const db = this.deps.database.kysely;
    if (!(await boardExists(db, boardId))) throw notFound('Board');
    await muteBoard(db, personId, boardId, isoNow(this.deps.clock));
  }

  async unmute(actor: Actor, boardId: string): Promise<void> {
    await unmuteBoard(this.deps.database.kysely, personOf(actor), boardId);
  }

  async mutedBoards(actor: Actor): Promise<Array<{ id: string; name: string }>> {
    return mutedBoards(this.deps.database.kysely, personOf(actor));
  }
}

/** Notifications belong to people: only a signed-in person has an inbox. */
function personOf(actor: Actor): string {
  if (actor.kind !== 'user') throw new DomainError('forbidden', 'Only a signed-in person has notifications.');
  return actor.userId;
}

function toNotification(row: NotificationListRow): Notification {
  return {
    id: row.id,
    kind: row.kind,
    board: { id: row.board_id, name: row.board_name },
    task: { id: row.task_id, shortId: row.task_short_id, title: row.task_title },
    commentId: row.comment_id,
    actor: { kind: row.actor_kind, name: row.actor_name },
    createdAt: row.created_at,
    read: row.read_at !== null,
  };
}
