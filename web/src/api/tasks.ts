import type { Static } from '@sinclair/typebox';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Task, UpdateTaskBody } from '../../../src/schemas/tasks.js';
import { type BoardView, boardKeys, type Card } from './boards';
import { api } from './client';

export type TaskDetail = Static<typeof Task>;
export type TaskChanges = Static<typeof UpdateTaskBody>;

export const taskPath = (boardId: string, taskId: string) => `/boards/${boardId}/tasks/${taskId}`;

/** Every query of one task's page starts with `all`: one invalidation refreshes them all. */
export const taskKeys = {
  all: (boardId: string, taskId: string) => ['task', boardId, taskId] as const,
  detail: (boardId: string, taskId: string) => [...taskKeys.all(boardId, taskId), 'detail'] as const,
  comments: (boardId: string, taskId: string) => [...taskKeys.all(boardId, taskId), 'comments'] as const,
  todos: (boardId: string, taskId: string) => [...taskKeys.all(boardId, taskId), 'todos'] as const,
  assets: (boardId: string, taskId: string) => [...taskKeys.all(boardId, taskId), 'assets'] as const,
  activities: (boardId: string, taskId: string) => [...taskKeys.all(boardId, taskId), 'activities'] as const,
  turns: (boardId: string, taskId: string, source: string) =>
    [...taskKeys.all(boardId, taskId), 'turns', source] as const,
};

export function useTask(boardId: string, taskId: string) {
  return useQuery({
    queryKey: taskKeys.detail(boardId, taskId),
    queryFn: () => api.get<TaskDetail>(taskPath(boardId, taskId)),
  });
}

export function useUpdateTask(boardId: string, taskId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: TaskChanges) => api.patch<TaskDetail>(taskPath(boardId, taskId), changes),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: taskKeys.all(boardId, taskId) }),
  });
}

/*
 * The board's task changes. None re-reads the board: the change's live event carries the card, and
 * web/src/live puts it into every cached view of the board (docs/ui-api.md, "The live stream").
 */

/** Inline create. Several may be in flight at once (the lane's input stays open for the next title). */
export function useCreateTask(boardId: string) {
  return useMutation({
    mutationFn: ({ laneId, title }: { laneId: string; title: string }) =>
      api.post<TaskDetail>(`/boards/${boardId}/tasks`, { laneId, title }),
  });
}

export function useArchiveTask(boardId: string) {
  return useMutation({
    mutationFn: (card: Card) =>
      api.patch<TaskDetail>(taskPath(boardId, card.id), { archived: !card.archived }),
  });
}

/**
 * A card's title edited on the board: shown at once in every cached view of the board (no re-read, the
 * live event confirms it) and put back if the server refuses.
 */
export function useRenameCard(boardId: string) {
  const queryClient = useQueryClient();
  const retitle = (cardId: string, title: string) =>
    queryClient.setQueriesData<BoardView>(
      { queryKey: boardKeys.board(boardId) },
      (view) =>
        view && {
          ...view,
          tasks: view.tasks.map((task) => (task.id === cardId ? { ...task, title } : task)),
        },
    );
  return useMutation({
    mutationFn: ({ card, title }: { card: Card; title: string }) =>
      api.patch<TaskDetail>(taskPath(boardId, card.id), { title }),
    onMutate: ({ card, title }) => retitle(card.id, title),
    onError: (_error, { card }) => retitle(card.id, card.title),
  });
}

/** The board with the card moved where the server will put it (dense positions), for an optimistic move. */
export function withMove(data: BoardView, taskId: string, laneId: string, position: number): BoardView {
  const card = data.tasks.find((t) => t.id === taskId);
  if (!card) return data;
  const rest = data.tasks.filter((t) => t.id !== taskId);
  const target = rest.filter((t) => t.laneId === laneId && !t.archived);
  target.splice(Math.min(position, target.length), 0, { ...card, laneId });
  const order = new Map(target.map((t, index) => [t.id, index]));
  const tasks = [...rest.filter((t) => t.laneId !== laneId || t.archived), ...target].map((t) => {
    const index = order.get(t.id);
    return index === undefined ? t : { ...t, position: index };
  });
  const counts = new Map<string, number>();
  for (const t of tasks) if (!t.archived) counts.set(t.laneId, (counts.get(t.laneId) ?? 0) + 1);
  return { ...data, tasks, lanes: data.lanes.map((l) => ({ ...l, taskCount: counts.get(l.id) ?? 0 })) };
}

/**
 * Moves a card at once on screen. The server's answer is not waited for and the board is not read
 * again: the move's live event carries the card where the server put it. A refused move puts the
 * board back and reads it again (for whatever else changed meanwhile).
 */
export function useMoveTask(boardId: string, archived: boolean) {
  const queryClient = useQueryClient();
  const key = boardKeys.view(boardId, archived);
  return useMutation({
    mutationFn: ({ card, laneId, position }: { card: Card; laneId: string; position: number }) =>
      api.post(`${taskPath(boardId, card.id)}/move`, { laneId, position }),
    onMutate: async ({ card, laneId, position }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<BoardView>(key);
      if (before) queryClient.setQueryData(key, withMove(before, card.id, laneId, position));
      return { before };
    },
    onError: (_error, _vars, context) => {
      if (context?.before) queryClient.setQueryData(key, context.before);
      return queryClient.invalidateQueries({ queryKey: boardKeys.board(boardId) });
    },
  });
}
