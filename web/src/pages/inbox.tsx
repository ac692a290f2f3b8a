import { AtSign, Check, CheckCheck, CircleCheckBig, MessageSquare, MoveRight, UserPlus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import {
  type Notification,
  type NotificationKind,
  useMarkAllRead,
  useMarkRead,
  useNotifications,
  useUnreadCount,
} from '../api/notifications';
import { Button, EmptyState, ErrorState, errorMessage, Loading, PageHeader, Time } from '../components/ui';
import { taskHref } from '../lib/task-anchor';

const KINDS: Record<NotificationKind, { icon: typeof AtSign; says: string }> = {
  assigned: { icon: UserPlus, says: 'assigned you to' },
  mentioned: { icon: AtSign, says: 'mentioned you in' },
  commented: { icon: MessageSquare, says: 'commented on' },
  moved: { icon: MoveRight, says: 'moved' },
  todos_done: { icon: CircleCheckBig, says: 'finished the todos of' },
};

const TAB =
  'rounded-md px-2.5 py-1 text-sm font-medium text-zinc-700 hover:bg-zinc-100 aria-pressed:bg-zinc-100 aria-pressed:text-zinc-900 dark:text-zinc-300 dark:hover:bg-zinc-800 dark:aria-pressed:bg-zinc-800 dark:aria-pressed:text-white';

function NotificationRow({ notification }: { notification: Notification }) {
  const navigate = useNavigate();
  const markRead = useMarkRead();
  const { icon: Icon, says } = KINDS[notification.kind];
  const { task, board } = notification;
  const open = () => {
    if (!notification.read) markRead.mutate(notification.id);
    // A mention in a comment, or a comment, opens the task at that comment.
    const comment = notification.commentId ? { kind: 'comment' as const, id: notification.commentId } : null;
    navigate(taskHref(board.id, task.id, comment));
  };
  return (
    <li
      className={`flex items-start gap-3 px-3 py-2.5 ${notification.read ? '' : 'bg-accent-50/60 dark:bg-zinc-800/60'}`}
    >
      <Icon
        aria-hidden
        className={`mt-0.5 size-4 shrink-0 ${notification.read ? 'text-zinc-500' : 'text-accent-600 dark:text-accent-400'}`}
      />
      <button type="button" onClick={open} className="min-w-0 flex-1 text-left">
        <span
          className={`block text-sm ${notification.read ? 'text-zinc-700 dark:text-zinc-300' : 'font-semibold'}`}
        >
          {notification.actor.name} {says}{' '}
          <span className="font-mono text-xs text-zinc-600 dark:text-zinc-400">#{task.shortId}</span>{' '}
          {task.title}
        </span>
        <span className="block text-xs text-zinc-600 dark:text-zinc-400">
          {board.name} · <Time iso={notification.createdAt} />
          {!notification.read && <span className="sr-only"> · unread</span>}
        </span>
      </button>
      {!notification.read && (
        <Button
          variant="ghost"
          className="min-h-7 shrink-0 px-2"
          aria-label={`Mark read: ${task.title}`}
          busy={markRead.isPending}
          onClick={() => markRead.mutate(notification.id, { onError: (e) => toast.error(errorMessage(e)) })}
        >
          <Check aria-hidden className="size-4" />
          <span className="hidden sm:inline">Mark read</span>
        </Button>
      )}
    </li>
  );
}

/** The person's notifications, newest first: unread ones stand out; opening one marks it read. */
export default function InboxPage() {
  const [unreadOnly, setUnreadOnly] = useState(false);
  const list = useNotifications(unreadOnly);
  const unread = useUnreadCount();
  const markAll = useMarkAllRead();
  useEffect(() => {
    document.title = 'Inbox · Laneboard';
  }, []);
  const items = list.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <>
      <PageHeader
        title="Inbox"
        description="Assignments, mentions, and changes others make to tasks assigned to you. Mute a board from its toolbar."
        actions={
          <Button
            onClick={() => markAll.mutate(undefined, { onError: (e) => toast.error(errorMessage(e)) })}
            busy={markAll.isPending}
            disabled={(unread.data ?? 0) === 0}
          >
            <CheckCheck aria-hidden className="size-4" /> Mark all read
          </Button>
        }
      />
      <fieldset className="mb-3 flex gap-1">
        <legend className="sr-only">Show</legend>
        <button type="button" className={TAB} aria-pressed={!unreadOnly} onClick={() => setUnreadOnly(false)}>
          All
        </button>
        <button type="button" className={TAB} aria-pressed={unreadOnly} onClick={() => setUnreadOnly(true)}>
          Unread{unread.data ? ` (${unread.data})` : ''}
        </button>
      </fieldset>
      {list.isPending && <Loading label="Loading notifications…" />}
      {list.isError && <ErrorState error={list.error} onRetry={() => list.refetch()} />}
      {list.isSuccess && items.length === 0 && (
        <EmptyState title={unreadOnly ? 'Nothing unread' : 'No notifications yet'}>
          You hear here when someone assigns you, mentions you with @your name, or changes a task assigned to
          you.
        </EmptyState>
      )}
      {items.length > 0 && (
        <ul
          aria-label="Notifications"
          className="divide-y divide-zinc-200 overflow-hidden rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
        >
          {items.map((notification) => (
            <NotificationRow key={notification.id} notification={notification} />
          ))}
        </ul>
      )}
      {list.hasNextPage && (
        <div className="mt-3">
          <Button onClick={() => list.fetchNextPage()} busy={list.isFetchingNextPage}>
            Show older
          </Button>
        </div>
      )}
    </>
  );
}
