import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { SESSION_KEY } from '../api/session';
import { type BoardData, boardKey } from '../pages/board/board-data';
import { applyLiveEvent, type LiveActivity } from './apply-event';

/** The event names of the live stream (activity types, then the stream's own). */
const EVENT_TYPES = [
  'board.updated',
  'board.deleted',
  'lane.created',
  'lane.updated',
  'lane.deleted',
  'task.created',
  'task.updated',
  'task.deleted',
  'task.moved',
  'comment.created',
  'comment.deleted',
  'todo.created',
  'todo.updated',
  'todo.deleted',
  'asset.created',
  'asset.deleted',
  'reaction.created',
  'reaction.deleted',
  'reset',
];

/**
 * Keeps every cached view of the board current from its live stream (one EventSource per tab, which
 * resumes with Last-Event-ID by itself): each event's card and lanes are written into the TanStack
 * Query cache directly, so a change costs no request, even on a board of thousands of tasks. A `reset`
 * re-reads the board; `signed-out` closes the stream and re-checks the session (the app goes to
 * sign-in). Queries of the task an event is about (`['board', boardId, 'task', taskId, …]`) are
 * refreshed, so an open task page follows too.
 */
export function useBoardEvents(boardId: string, activityId: number | null | undefined): void {
  const queryClient = useQueryClient();
  // The stream starts after the first snapshot; later snapshots do not restart it.
  const startAfter = useRef<number | null>(null);
  if (startAfter.current === null && typeof activityId === 'number') startAfter.current = activityId;
  const live = typeof activityId === 'number';
  useEffect(() => {
    if (!live) return;
    const source = new EventSource(`/api/ui/boards/${boardId}/events?after=${startAfter.current}`);
    const onEvent = (event: MessageEvent<string>) => {
      let activity: LiveActivity | null = null;
      try {
        activity = JSON.parse(event.data) as LiveActivity;
      } catch {
        activity = null;
      }
      let reload = false;
      for (const [key, data] of queryClient.getQueriesData<BoardData>({ queryKey: boardKey(boardId) })) {
        if (!data || !Array.isArray((data as Partial<BoardData>).tasks)) continue;
        const archived = (key[2] as { archived?: boolean } | undefined)?.archived === true;
        const next = applyLiveEvent(data, event.type, activity, archived);
        if (next === 'reload') reload = true;
        else if (next !== data) queryClient.setQueryData(key, next);
      }
      if (reload) void queryClient.invalidateQueries({ queryKey: boardKey(boardId) });
      else if (activity?.taskId) {
        void queryClient.invalidateQueries({ queryKey: [...boardKey(boardId), 'task', activity.taskId] });
      }
    };
    for (const type of EVENT_TYPES) source.addEventListener(type, onEvent);
    source.addEventListener('signed-out', () => {
      source.close();
      void queryClient.invalidateQueries({ queryKey: SESSION_KEY });
    });
    return () => source.close();
  }, [boardId, live, queryClient]);
}
