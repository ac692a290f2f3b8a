import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { type BoardView, boardKeys } from '../api/boards';
import { sessionKeys } from '../api/session';
import { writeTagColors } from '../api/tag-colors';
import { taskKeys } from '../api/tasks';
import { applyLiveEvent, type LiveActivity, tagColorsAfter } from './apply-event';

/** The event names of the live stream (activity types, then the stream's own). */
const EVENT_TYPES = [
  'board.updated',
  'board.deleted',
  'tag.color_changed',
  'lane.created',
  'lane.updated',
  'lane.deleted',
  'task.created',
  'task.updated',
  'task.deleted',
  'task.moved',
  'task.assigned',
  'task.unassigned',
  'turns.captured',
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
 * Writes one event into every cached view of the board (its card and lanes, without a request) and
 * refreshes the queries of the task it is about (an open task page: details, comments, todos, files,
 * activity). A `reset`, or an event the snapshot cannot take, re-reads the board.
 */
function applyToCache(queryClient: QueryClient, boardId: string, event: MessageEvent<string>): void {
  let activity: LiveActivity | null = null;
  try {
    activity = JSON.parse(event.data) as LiveActivity;
  } catch {
    activity = null;
  }
  let reload = false;
  for (const [key, data] of queryClient.getQueriesData<BoardView>({ queryKey: boardKeys.board(boardId) })) {
    if (!data) continue;
    const archived = (key[2] as { archived?: boolean } | undefined)?.archived === true;
    const next = applyLiveEvent(data, event.type, activity, archived);
    if (next === 'reload') reload = true;
    else if (next !== data) queryClient.setQueryData(key, next);
  }
  if (reload) void queryClient.invalidateQueries({ queryKey: boardKeys.board(boardId) });
  // The task page reads the colours with the board's detail, not the board view.
  if (event.type === 'tag.color_changed' && activity) {
    writeTagColors(queryClient, boardId, (colors) => tagColorsAfter(colors, activity.data), { views: false });
  }
  if (activity?.taskId)
    void queryClient.invalidateQueries({ queryKey: taskKeys.all(boardId, activity.taskId) });
}

/** Opens the board's stream (one per tab; the browser resumes it with Last-Event-ID by itself). */
function openStream(
  queryClient: QueryClient,
  boardId: string,
  after: number | null,
  onOpen?: () => void,
): () => void {
  const source = new EventSource(
    `/api/ui/boards/${boardId}/events${after === null ? '' : `?after=${after}`}`,
  );
  const onEvent = (event: MessageEvent<string>) => applyToCache(queryClient, boardId, event);
  for (const type of EVENT_TYPES) source.addEventListener(type, onEvent);
  if (onOpen) source.addEventListener('open', onOpen);
  source.addEventListener('signed-out', () => {
    source.close();
    void queryClient.invalidateQueries({ queryKey: sessionKeys.session() });
  });
  return () => source.close();
}

/**
 * Keeps every cached view of the board current from its live stream: each event's card and lanes are
 * written into the TanStack Query cache directly, so a change costs no request, even on a board of
 * thousands of tasks. `signed-out` closes the stream and re-checks the session (the app goes to sign-in).
 */
export function useBoardEvents(boardId: string, activityId: number | null | undefined): void {
  const queryClient = useQueryClient();
  // The stream starts after the first snapshot; later snapshots do not restart it.
  const startAfter = useRef<number | null>(null);
  if (startAfter.current === null && typeof activityId === 'number') startAfter.current = activityId;
  const live = typeof activityId === 'number';
  useEffect(() => {
    if (!live) return;
    return openStream(queryClient, boardId, startAfter.current);
  }, [boardId, live, queryClient]);
}

/**
 * The task page's live updates: the board's stream from now on; an event about this task refreshes its
 * queries (a comment, todo or edit made through the external API or MCP shows in an open task tab).
 * What changed between the page's first reads and the stream's start is caught by one refresh when the
 * stream opens (and again after each reconnect, which resumes from the last event anyway).
 */
export function useTaskEvents(boardId: string, taskId: string): void {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      openStream(queryClient, boardId, null, () => {
        void queryClient.invalidateQueries({ queryKey: taskKeys.all(boardId, taskId) });
      }),
    [boardId, taskId, queryClient],
  );
}
