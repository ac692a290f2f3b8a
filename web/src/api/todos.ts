import type { Static } from '@sinclair/typebox';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Todo as TodoSchema } from '../../../src/schemas/todos.js';
import { api } from './client';
import { taskKeys, taskPath } from './tasks';

export type Todo = Static<typeof TodoSchema>;

/**
 * A task's todos and their changes. Ticks and reorders show at once; a refused one puts the list back.
 * What the server answers for one change predates the others still on their way: with another todo
 * change pending, its answer (or a re-read) would undo that change's tick or order on screen until the
 * last one settles. So only the last change to settle shows the server's list. `onError` hears of
 * every refused change (a callback given to `mutate` hears only of the latest).
 */
export function useTodos(boardId: string, taskId: string, onError: (error: unknown) => void) {
  const queryClient = useQueryClient();
  const key = taskKeys.todos(boardId, taskId);
  const base = `${taskPath(boardId, taskId)}/todos`;
  const list = useQuery({ queryKey: key, queryFn: () => api.get<Todo[]>(base) });
  const lastPending = () => queryClient.isMutating({ mutationKey: key }) <= 1;
  const refreshWhenLast = () =>
    lastPending() ? queryClient.invalidateQueries({ queryKey: key }) : undefined;
  const putBack = (before: Todo[] | undefined) => queryClient.setQueryData(key, before);
  // New todos join the latest iteration (an agent's current round of work).
  const latestIteration = Math.max(0, ...(list.data ?? []).map((t) => t.iteration));
  const add = useMutation({
    mutationKey: key,
    mutationFn: (text: string) => api.post<Todo>(base, { text, iteration: latestIteration }),
    onSuccess: refreshWhenLast,
    onError,
  });
  const toggle = useMutation({
    mutationKey: key,
    mutationFn: (todo: Todo) => api.patch<Todo>(`${base}/${todo.id}`, { done: !todo.done }),
    onMutate: async (todo: Todo) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<Todo[]>(key);
      queryClient.setQueryData<Todo[]>(key, (todos) =>
        todos?.map((t) => (t.id === todo.id ? { ...t, done: !todo.done } : t)),
      );
      return { before };
    },
    onError: (error, _todo, context) => {
      putBack(context?.before);
      onError(error);
    },
    onSettled: refreshWhenLast,
  });
  const edit = useMutation({
    mutationKey: key,
    mutationFn: ({ todo, text }: { todo: Todo; text: string }) =>
      api.patch<Todo>(`${base}/${todo.id}`, { text }),
    onSuccess: refreshWhenLast,
    onError,
  });
  const reorder = useMutation({
    mutationKey: key,
    mutationFn: (orderedIds: string[]) => api.post<Todo[]>(`${base}/reorder`, { orderedIds }),
    onMutate: async (orderedIds: string[]) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<Todo[]>(key);
      const byId = new Map(before?.map((t) => [t.id, t]));
      const after = orderedIds.map((id) => byId.get(id)).filter((t): t is Todo => t !== undefined);
      if (before && after.length === before.length) queryClient.setQueryData(key, after);
      return { before };
    },
    onSuccess: (todos) => {
      if (lastPending()) queryClient.setQueryData(key, todos);
    },
    onError: (error, _ids, context) => {
      putBack(context?.before);
      onError(error);
      return refreshWhenLast();
    },
  });
  const remove = useMutation({
    mutationKey: key,
    mutationFn: (todo: Todo) => api.delete(`${base}/${todo.id}`),
    onSuccess: refreshWhenLast,
    onError,
  });
  return { list, add, toggle, edit, reorder, remove };
}
