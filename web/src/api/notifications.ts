import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, getEnvelope } from './client';

export type NotificationKind = 'assigned' | 'mentioned' | 'commented' | 'moved' | 'todos_done';

/** One inbox line (`GET /api/ui/notifications`). */
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

interface NotificationPage {
  data: Notification[];
  nextCursor: string | null;
  unread: number;
}

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
    queryFn: async () => (await api.get<{ unread: number }>('/notifications/unread-count')).unread,
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
  return useInboxMutation(() => api.post<{ marked: number }>('/notifications/read-all'));
}

/** The boards the person muted (they notify only mentions). */
export function useMutedBoards() {
  return useQuery({
    queryKey: notificationKeys.muted(),
    queryFn: () => api.get<Array<{ id: string; name: string }>>('/notifications/muted-boards'),
  });
}

export function useSetBoardMuted(boardId: string) {
  return useInboxMutation((muted: boolean) =>
    muted ? api.put(`/boards/${boardId}/mute`, {}) : api.delete(`/boards/${boardId}/mute`),
  );
}
