import type { Insertable } from 'kysely';
import type { Executor, NotificationsTable } from '../schema.js';

export type NotificationKind = NotificationsTable['kind'];
export type NewNotificationRow = Insertable<NotificationsTable>;

/** One inbox line: the notification with its task's short id and title and its board's name. */
export interface NotificationListRow {
  id: string;
  kind: NotificationKind;
  board_id: string;
  board_name: string;
  task_id: string;
  task_short_id: string;
  task_title: string;
  comment_id: string | null;
  actor_kind: string;
  actor_name: string;
  created_at: string;
  read_at: string | null;
}

/** The people among `ids` who are still active (deactivated people are notified of nothing). */
export async function activePeopleAmong(db: Executor, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('id', 'in', ids)
    .where('active', '=', 1)
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** The people among `ids` who muted the board. */
export async function mutedAmong(
  db: Executor,
  boardId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('board_mutes')
    .select('person_id')
    .where('board_id', '=', boardId)
    .where('person_id', 'in', ids)
    .execute();
  return new Set(rows.map((r) => r.person_id));
}

/** The people (not agents) assigned to the task. */
export async function personAssigneesOfTask(db: Executor, taskId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('task_assignees')
    .select('member_id')
    .where('task_id', '=', taskId)
    .where('member_type', '=', 'person')
    .execute();
  return rows.map((r) => r.member_id);
}

export async function openTodoCount(db: Executor, taskId: string): Promise<number> {
  const row = await db
    .selectFrom('todos')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('task_id', '=', taskId)
    .where('done', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The people among `ids` who already have a notification of `kind` about the task; `unreadOnly` counts
 * only unread ones. `commentId` null: only those not about a comment (a mention in the description).
 */
export async function alreadyNotified(
  db: Executor,
  taskId: string,
  kind: NotificationKind,
  ids: readonly string[],
  options: { unreadOnly: boolean; withoutComment: boolean },
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  let query = db
    .selectFrom('notifications')
    .select('person_id')
    .where('task_id', '=', taskId)
    .where('kind', '=', kind)
    .where('person_id', 'in', ids);
  if (options.unreadOnly) query = query.where('read_at', 'is', null);
  if (options.withoutComment) query = query.where('comment_id', 'is', null);
  const rows = await query.execute();
  return new Set(rows.map((r) => r.person_id));
}

export async function insertNotifications(db: Executor, rows: readonly NewNotificationRow[]): Promise<void> {
  if (rows.length > 0)
    await db
      .insertInto('notifications')
      .values([...rows])
      .execute();
}

/** A person's notifications, newest first; `before`: the id of the last one of the previous page. */
export async function listNotifications(
  db: Executor,
  personId: string,
  page: { before: string | null; limit: number; unreadOnly: boolean },
): Promise<NotificationListRow[]> {
  let query = db
    .selectFrom('notifications as n')
    .innerJoin('tasks as t', 't.id', 'n.task_id')
    .innerJoin('boards as b', 'b.id', 'n.board_id')
    .select([
      'n.id',
      'n.kind',
      'n.board_id',
      'b.name as board_name',
      'n.task_id',
      't.short_id as task_short_id',
      't.title as task_title',
      'n.comment_id',
      'n.actor_kind',
      'n.actor_name',
      'n.created_at',
      'n.read_at',
    ])
    .where('n.person_id', '=', personId);
  if (page.unreadOnly) query = query.where('n.read_at', 'is', null);
  // Ids sort in creation order (lib/ids.ts), so the id alone pages the list.
  if (page.before !== null) query = query.where('n.id', '<', page.before);
  return query.orderBy('n.id', 'desc').limit(page.limit).execute();
}

export async function unreadCount(db: Executor, personId: string): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('person_id', '=', personId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Marks one of the person's notifications read; false when the person has no such notification. */
export async function markRead(db: Executor, personId: string, id: string, at: string): Promise<boolean> {
  const found = await db
    .selectFrom('notifications')
    .select('read_at')
    .where('id', '=', id)
    .where('person_id', '=', personId)
    .executeTakeFirst();
  if (!found) return false;
  if (found.read_at === null) {
    await db
      .updateTable('notifications')
      .set({ read_at: at })
      .where('id', '=', id)
      .where('person_id', '=', personId)
      .execute();
  }
  return true;
}

/** Marks every unread notification of the person read; returns how many. */
export async function markAllRead(db: Executor, personId: string, at: string): Promise<number> {
  const result = await db
    .updateTable('notifications')
    .set({ read_at: at })
    .where('person_id', '=', personId)
    .where('read_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function muteBoard(db: Executor, personId: string, boardId: string, at: string): Promise<void> {
  await db
    .insertInto('board_mutes')
    .values({ person_id: personId, board_id: boardId, created_at: at })
    .onConflict((oc) => oc.columns(['person_id', 'board_id']).doNothing())
    .execute();
}

export async function unmuteBoard(db: Executor, personId: string, boardId: string): Promise<void> {
  await db
    .deleteFrom('board_mutes')
    .where('person_id', '=', personId)
    .where('board_id', '=', boardId)
    .execute();
}

/** The boards the person muted, with their names, by name. */
export async function mutedBoards(
  db: Executor,
  personId: string,
): Promise<Array<{ id: string; name: string }>> {
  return db
    .selectFrom('board_mutes as m')
    .innerJoin('boards as b', 'b.id', 'm.board_id')
    .select(['b.id', 'b.name'])
    .where('m.person_id', '=', personId)
    .orderBy('b.name')
    .execute();
}

/**
 * Retention: deletes up to `limit` read notifications (of anyone) created before `before`; returns how
 * many. One short statement per batch, oldest first (a partial index, migration 022).
 */
export async function deleteReadNotificationsBefore(
  db: Executor,
  before: string,
  limit: number,
): Promise<number> {
  const result = await db
    .deleteFrom('notifications')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('notifications')
        .select('id')
        .where('created_at', '<', before)
        .where('read_at', 'is not', null)
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Retention: deletes up to `limit` unread notifications created before `before`; returns whose they were. */
export async function deleteUnreadNotificationsBefore(
  db: Executor,
  before: string,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .deleteFrom('notifications')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('notifications')
        .select('id')
        .where('created_at', '<', before)
        .where('read_at', 'is', null)
        .limit(limit),
    )
    .returning('person_id')
    .execute();
  return rows.map((r) => r.person_id);
}
