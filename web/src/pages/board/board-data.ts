import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ApiError, api } from '../../api/client';

export interface Lane {
  id: string;
  name: string;
  position: number;
  taskCount: number;
}

/** A task as its card shows it. The counts come with the board view (docs/ui-api.md, live board). */
export interface Card {
  id: string;
  shortId: string;
  title: string;
  laneId: string;
  position: number | null;
  priority: number;
  tags: string[];
  archived: boolean;
  todos?: { done: number; total: number };
  commentCount?: number;
  assetCount?: number;
  agentActive?: boolean;
}

export interface BoardData {
  board: { id: string; name: string };
  lanes: Lane[];
  tasks: Card[];
  /** The newest activity in this snapshot; null when the server has no board view (no live stream). */
  activityId: number | null;
}

/** Where the live stream is not served, the board is read from the board and task lists. */
async function readFromLists(boardId: string, archived: boolean): Promise<BoardData> {
  const [board, tasks] = await Promise.all([
    api.get<{ id: string; name: string; lanes: Omit<Lane, 'position'>[] }>(`/boards/${boardId}`),
    api.get<Card[]>(`/boards/${boardId}/tasks${archived ? '?includeArchived=true' : ''}`),
  ]);
  return {
    board: { id: board.id, name: board.name },
    lanes: board.lanes.map((lane, position) => ({ ...lane, position })),
    tasks,
    activityId: null,
  };
}

async function readBoard(boardId: string, archived: boolean): Promise<BoardData> {
  try {
    return await api.get<BoardData>(`/boards/${boardId}/view${archived ? '?archived=true' : ''}`);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404 && error.message.startsWith('No route')) {
      return readFromLists(boardId, archived);
    }
    throw error;
  }
}

export const boardKey = (boardId: string) => ['board', boardId] as const;

export function useBoard(boardId: string, archived: boolean) {
  return useQuery({
    queryKey: [...boardKey(boardId), { archived }],
    queryFn: () => readBoard(boardId, archived),
  });
}

/**
 * Where the server has no live stream (an older server: the snapshot's `activityId` is null), the
 * open board is re-read every few seconds. With a stream, `useBoardEvents` (web/src/live) keeps the
 * cache current event by event instead.
 */
export function usePollingFallback(boardId: string, activityId: number | null | undefined) {
  const queryClient = useQueryClient();
  const polling = activityId === null;
  useEffect(() => {
    if (!polling) return;
    const poll = setInterval(() => void queryClient.invalidateQueries({ queryKey: boardKey(boardId) }), 5000);
    return () => clearInterval(poll);
  }, [boardId, polling, queryClient]);
}

export const PRIORITY_LABELS = ['None', 'Low', 'Medium', 'High', 'Urgent'] as const;
