import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { notificationKeys, type Unread } from '../api/notifications';
import { sessionKeys } from '../api/session';

/**
 * The signed-in person's inbox stream (one per tab, `GET /api/ui/notifications/events`): each `unread`
 * event carries the unread count, written into the badge's query; a changed count also refreshes the
 * inbox list if it is open. `signed-out` closes the stream and re-checks the session.
 */
export function useInboxEvents(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const source = new EventSource('/api/ui/notifications/events');
    source.addEventListener('unread', (event: MessageEvent<string>) => {
      let unread: number | null = null;
      try {
        unread = (JSON.parse(event.data) as Unread).unread;
      } catch {
        unread = null;
      }
      if (typeof unread !== 'number') return;
      const before = queryClient.getQueryData<number>(notificationKeys.unread());
      queryClient.setQueryData(notificationKeys.unread(), unread);
      if (before !== unread) {
        void queryClient.invalidateQueries({ queryKey: notificationKeys.lists() });
      }
    });
    source.addEventListener('signed-out', () => {
      source.close();
      void queryClient.invalidateQueries({ queryKey: sessionKeys.session() });
    });
    return () => source.close();
  }, [queryClient]);
}
