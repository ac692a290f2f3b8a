import type { Static } from '@sinclair/typebox';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BoardDetail, Board as BoardSchema, BoardSummary } from '../../../src/schemas/boards.js';
import type { BoardView } from './board-view';
import { api } from './client';

/** A board as the board list shows it (the external API's summary: id, name, the caller's permission). */
export type Board = Static<typeof BoardSummary>;
export type CreatedBoard = Static<typeof BoardSchema>;

export type { BoardView, Card, Lane } from './board-view';

export const PRIORITY_LABELS = ['None', 'Low', 'Medium', 'High', 'Urgent'] as const;

export const boardKeys = {
  /** The board list (home page, the access picker). */
  list: () => ['boards'] as const,
  /** Every cached view of one board (with and without archived tasks). */
  board: (boardId: string) => ['board', boardId] as const,
  view: (boardId: string, archived: boolean) => ['board', boardId, { archived }] as const,
  /** The board's name and lanes, for the task page's breadcrumb and lane name. */
  detail: (boardId: string) => ['board-detail', boardId] as const,
};

export function useBoards() {
  return useQuery({ queryKey: boardKeys.list(), queryFn: () => api.get<Board[]>('/boards') });
}

export function useCreateBoard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.post<CreatedBoard>('/boards', { name }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: boardKeys.list() }),
  });
}

/**
 * The board view's query. Fresh for a while once read: the live stream (web/src/live) keeps it current
 * from its `activityId`, and a read started at page load (prefetchBoardOf) is not repeated on mount.
 */
const viewQuery = (boardId: string, archived: boolean) => ({
  queryKey: boardKeys.view(boardId, archived),
  queryFn: () => api.get<BoardView>(`/boards/${boardId}/view${archived ? '?archived=true' : ''}`),
  staleTime: 30_000,
  /*
   * The moves and live events that write this view keep every untouched card's object, which is what
   * lets the board re-render only what changed. Structural sharing compares old and new by array index:
   * once a move shifts the cards, it copied thousands of them into new objects (and re-rendered every
   * card on screen, issue 27), and it walks all 4 000 cards on every write.
   */
  structuralSharing: false,
});

export function useBoardView(boardId: string, archived: boolean) {
  return useQuery(viewQuery(boardId, archived));
}

/**
 * When the page loads at a board's address, its view is requested at once, beside the session request
 * and the board page's code, not after them (a 4 000-task board's first cards showed 2.6 s after
 * navigation when it waited). Signed out, the read is a 401 and the session check sends the tab to
 * sign-in as it would anyway.
 */
export function prefetchBoardOf(queryClient: QueryClient, pathname: string): void {
  const boardId = /^\/boards\/([^/]+)\/?$/.exec(pathname)?.[1];
  if (boardId) void queryClient.prefetchQuery(viewQuery(decodeURIComponent(boardId), false));
}

export function useBoardDetail(boardId: string) {
  return useQuery({
    queryKey: boardKeys.detail(boardId),
    queryFn: () => api.get<Static<typeof BoardDetail>>(`/boards/${boardId}`),
  });
}

/*
 * The board page's changes. None re-reads the board: the live stream (web/src/live) brings each
 * change's card or lanes into every cached view of the board, the change made here included.
 */

export function useRenameBoard(boardId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.patch(`/boards/${boardId}`, { name }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: boardKeys.list() }),
  });
}

export function useDeleteBoard(boardId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete(`/boards/${boardId}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: boardKeys.list() }),
  });
}

export function useAddLane(boardId: string) {
  return useMutation({ mutationFn: (name: string) => api.post(`/boards/${boardId}/lanes`, { name }) });
}

export function useRenameLane(boardId: string) {
  return useMutation({
    mutationFn: ({ laneId, name }: { laneId: string; name: string }) =>
      api.patch(`/boards/${boardId}/lanes/${laneId}`, { name }),
  });
}

export function useDeleteLane(boardId: string) {
  return useMutation({ mutationFn: (laneId: string) => api.delete(`/boards/${boardId}/lanes/${laneId}`) });
}

/** Moves a lane at once on screen; a refused move puts the lanes back. */
export function useMoveLane(boardId: string, archived: boolean) {
  const queryClient = useQueryClient();
  const key = boardKeys.view(boardId, archived);
  return useMutation({
    mutationFn: ({ laneId, position }: { laneId: string; position: number }) =>
      api.patch(`/boards/${boardId}/lanes/${laneId}`, { position }),
    onMutate: async ({ laneId, position }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<BoardView>(key);
      if (before) {
        const lanes = before.lanes.filter((l) => l.id !== laneId);
        const lane = before.lanes.find((l) => l.id === laneId);
        if (lane) lanes.splice(position, 0, lane);
        queryClient.setQueryData<BoardView>(key, {
          ...before,
          lanes: lanes.map((l, index) => ({ ...l, position: index })),
        });
      }
      return { before };
    },
    // Refused: the lanes go back at once, and the board is read again for whatever else changed meanwhile.
    onError: (_error, _vars, context) => {
      if (context?.before) queryClient.setQueryData(key, context.before);
      return queryClient.invalidateQueries({ queryKey: boardKeys.board(boardId) });
    },
  });
}
