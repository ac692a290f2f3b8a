import type { Static } from '@sinclair/typebox';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  MarkedRead,
  MutedBoard,
  NotificationPage as NotificationPageSchema,
  Notification as NotificationSchema,
  UnreadCount,
} from '../../../src/schemas/notifications.js';
import { api, getEnvelope } from './client';

/** One inbox line (`GET /api/ui/notifications`). */
export type Notification = Static<typeof NotificationSchema>;
export type NotificationKind = Notification['kind'];
type NotificationPage = Static<typeof NotificationPageSchema>;
/** The `data` of the inbox stream's `unread` event, and the unread count's answer. */
export type Unread = Static<typeof UnreadCount>;

export const notificationKeys = {
  all: () => ['notifications'] as const,
  lists: () => ['notifications', 'list'] as const,
  list: (unreadOnly: boolean) => ['notifications', 'list', { unreadOnly }] as const,
  unread: () => ['notifications', 'unread-count'] as const,
  muted: () => ['notifications', 'muted-boards'] as const,
};

/** The person's inbox, newest first, a page at a time (`fetchNextPage` for older ones). */
export function useNotifications(unreadOnly = false) {
  return useInfiniteQuery({
    queryKey: notificationKeys.list(unreadOnly),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => {
      const query = new URLSearchParams({ limit: '30' });
      if (pageParam) query.set('before', pageParam);
      if (unreadOnly) query.set('unread', 'true');
      return getEnvelope<NotificationPage>(`/notifications?${query}`);
    },
    getNextPageParam: (last) => last.nextCursor,
  });
}

/** How many notifications are unread (the header's badge); the inbox stream keeps it current. */
export function useUnreadCount() {
  return useQuery({
    queryKey: notificationKeys.unread(),
    queryFn: async () => (await api.get<Unread>('/notifications/unread-count')).unread,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

function useInboxMutation<T>(mutationFn: (input: T) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all() }),
  });
}

export function useMarkRead() {
  return useInboxMutation((id: string) => api.post(`/notifications/${encodeURIComponent(id)}/read`));
}

export function useMarkAllRead() {
  return useInboxMutation(() => api.post<Static<typeof MarkedRead>>('/notifications/read-all'));
}

/** The boards the person muted (they notify only mentions). */
export function useMutedBoards() {
  return useQuery({
    queryKey: notificationKeys.muted(),
    queryFn: () => api.get<Array<Static<typeof MutedBoard>>>('/notifications/muted-boards'),
  });
}

export function useSetBoardMuted(boardId: string) {
  return useInboxMutation((muted: boolean) =>
    muted ? api.put(`/boards/${boardId}/mute`, {}) : api.delete(`/boards/${boardId}/mute`),
  );
}
