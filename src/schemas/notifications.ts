import { Type } from '@sinclair/typebox';
import { Nullable, StringEnum, Timestamp } from './common.js';

/*
 * The signed-in person's inbox as the web UI's API answers it (docs/ui-api.md, "Notifications"): the
 * routes under /api/ui serialise with these, and the UI takes its types from them (`import type`).
 */

export const NOTIFICATION_KINDS = ['assigned', 'mentioned', 'commented', 'moved', 'todos_done'] as const;
export const NotificationKind = StringEnum(NOTIFICATION_KINDS);

/** One inbox line. */
export const Notification = Type.Object({
  id: Type.String(),
  kind: NotificationKind,
  board: Type.Object({ id: Type.String(), name: Type.String() }),
  task: Type.Object({ id: Type.String(), shortId: Type.String(), title: Type.String() }),
  commentId: Nullable(Type.String()),
  actor: Type.Object({ kind: Type.String(), name: Type.String() }),
  createdAt: Timestamp,
  read: Type.Boolean(),
});

/** A page of the inbox, newest first; `nextCursor` (the next `before`) is null on the last page. */
export const NotificationPage = Type.Object({
  data: Type.Array(Notification),
  nextCursor: Nullable(Type.String()),
  unread: Type.Integer(),
});

export const UnreadCount = Type.Object({ unread: Type.Integer() });
export const MarkedRead = Type.Object({ marked: Type.Integer() });
export const MutedBoard = Type.Object({ id: Type.String(), name: Type.String() });
