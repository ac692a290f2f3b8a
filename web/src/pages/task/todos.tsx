import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowDown, ArrowUp, Pencil, Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { api } from '../../api/client';
import { Button, ErrorState, errorMessage, Loading } from '../../components/ui';
import { type Todo, taskKey, taskPath } from './task-data';

export function Todos({ boardId, taskId }: { boardId: string; taskId: string }) {
  const queryClient = useQueryClient();
  const key = [...taskKey(boardId, taskId), 'todos'];
  const base = `${taskPath(boardId, taskId)}/todos`;
  const todos = useQuery({ queryKey: key, queryFn: () => api.get<Todo[]>(base) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  const onError = (error: unknown) => toast.error(errorMessage(error));
  // New todos join the latest iteration (an agent's current round of work).
  const latestIteration = Math.max(0, ...(todos.data ?? []).map((t) => t.iteration));
  const add = useMutation({
    mutationFn: (text: string) => api.post<Todo>(base, { text, iteration: latestIteration }),
    onSuccess: refresh,
    onError,
  });
  // The tick shows at once; a refused change puts the list back as it was.
  const toggle = useMutation({
    mutationFn: (todo: Todo) => api.patch<Todo>(`${base}/${todo.id}`, { done: !todo.done }),
    onMutate: async (todo: Todo) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<Todo[]>(key);
      queryClient.setQueryData<Todo[]>(key, (list) =>
        list?.map((t) => (t.id === todo.id ? { ...t, done: !todo.done } : t)),
      );
      return { before };
    },
    onError: (error, _todo, context) => {
      queryClient.setQueryData(key, context?.before);
      onError(error);
    },
    onSettled: refresh,
  });
  const [editingId, setEditingId] = useState<string | null>(null);
  const edit = useMutation({
    mutationFn: ({ todo, text }: { todo: Todo; text: string }) =>
      api.patch<Todo>(`${base}/${todo.id}`, { text }),
    onSuccess: () => {
      setEditingId(null);
      return refresh();
    },
    onError,
  });
  const reorder = useMutation({
    mutationFn: (orderedIds: string[]) => api.post<Todo[]>(`${base}/reorder`, { orderedIds }),
    onSuccess: (list) => queryClient.setQueryData(key, list),
    onError: (error) => {
      onError(error);
      return refresh();
    },
  });
  /** Swaps the todo with its neighbour in the same iteration (the keyboard path for reordering). */
  const move = (todo: Todo, step: -1 | 1) => {
    const list = todos.data ?? [];
    const index = list.findIndex((t) => t.id === todo.id);
    const other = list[index + step];
    if (!other || other.iteration !== todo.iteration) return;
    const ids = list.map((t) => t.id);
    [ids[index], ids[index + step]] = [other.id, todo.id];
    reorder.mutate(ids);
  };
  const saveEdit = (event: FormEvent<HTMLFormElement>, todo: Todo) => {
    event.preventDefault();
    edit.mutate({ todo, text: String(new FormData(event.currentTarget).get('text')) });
  };
  const remove = useMutation({
    mutationFn: (todo: Todo) => api.delete(`${base}/${todo.id}`),
    onSuccess: refresh,
    onError,
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    add.mutate(String(new FormData(form).get('text')), { onSuccess: () => form.reset() });
  };
  const iterations = [...new Set((todos.data ?? []).map((t) => t.iteration))].sort((a, b) => a - b);
  const done = todos.data?.filter((t) => t.done).length ?? 0;
  return (
    <section aria-labelledby="todos-heading" className="space-y-3">
      <h2 id="todos-heading" className="font-semibold">
        Todos{' '}
        {todos.data && todos.data.length > 0 && (
          <span className="text-sm font-normal text-zinc-600 dark:text-zinc-400">
            {done}/{todos.data.length}
          </span>
        )}
      </h2>
      {todos.isPending && <Loading label="Loading todos…" />}
      {todos.isError && <ErrorState error={todos.error} onRetry={() => todos.refetch()} />}
      {todos.data?.length === 0 && <p className="text-sm text-zinc-600 dark:text-zinc-400">No todos yet.</p>}
      {iterations.map((iteration) => (
        <div key={iteration}>
          {iterations.length > 1 && (
            <h3 className="mb-1 text-xs font-medium text-zinc-600 dark:text-zinc-400">
              Iteration {iteration}
            </h3>
          )}
          <ul className="space-y-1">
            {(todos.data ?? [])
              .filter((t) => t.iteration === iteration)
              .map((todo, _index, list) => (
                <li key={todo.id} className="flex items-center gap-0.5 text-sm">
                  {editingId === todo.id ? (
                    <form onSubmit={(event) => saveEdit(event, todo)} className="flex flex-1 gap-1">
                      <label htmlFor={`todo-edit-${todo.id}`} className="sr-only">
                        Todo text
                      </label>
                      <input
                        id={`todo-edit-${todo.id}`}
                        name="text"
                        required
                        defaultValue={todo.text}
                        // biome-ignore lint/a11y/noAutofocus: the field the person just asked to edit
                        autoFocus
                        onKeyDown={(event) => event.key === 'Escape' && setEditingId(null)}
                        className="min-w-0 flex-1 rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900"
                      />
                      <Button type="submit" className="min-h-7 px-2" busy={edit.isPending}>
                        Save
                      </Button>
                    </form>
                  ) : (
                    <>
                      <input
                        id={`todo-${todo.id}`}
                        type="checkbox"
                        checked={todo.done}
                        onChange={() => toggle.mutate(todo)}
                      />
                      <label
                        htmlFor={`todo-${todo.id}`}
                        className={`ml-1 flex-1 ${todo.done ? 'text-zinc-500 line-through' : ''}`}
                      >
                        {todo.text}
                      </label>
                      <Button
                        variant="ghost"
                        className="min-h-7 px-1.5"
                        onClick={() => setEditingId(todo.id)}
                        aria-label={`Edit todo ${todo.text}`}
                      >
                        <Pencil aria-hidden className="size-3.5" />
                      </Button>
                    </>
                  )}
                  <Button
                    variant="ghost"
                    className="min-h-7 px-1.5 disabled:opacity-40"
                    disabled={reorder.isPending || list[0]?.id === todo.id}
                    onClick={() => move(todo, -1)}
                    aria-label={`Move todo ${todo.text} up`}
                  >
                    <ArrowUp aria-hidden className="size-3.5" />
                  </Button>
                  <Button
                    variant="ghost"
                    className="min-h-7 px-1.5 disabled:opacity-40"
                    disabled={reorder.isPending || list.at(-1)?.id === todo.id}
                    onClick={() => move(todo, 1)}
                    aria-label={`Move todo ${todo.text} down`}
                  >
                    <ArrowDown aria-hidden className="size-3.5" />
                  </Button>
                  <Button
                    variant="ghost"
                    className="min-h-7 px-1.5"
                    onClick={() => remove.mutate(todo)}
                    aria-label={`Delete todo ${todo.text}`}
                  >
                    <Trash2 aria-hidden className="size-3.5" />
                  </Button>
                </li>
              ))}
          </ul>
        </div>
      ))}
      <form onSubmit={submit} className="flex gap-2">
        <label htmlFor="new-todo" className="sr-only">
          New todo
        </label>
        <input
          id="new-todo"
          name="text"
          required
          placeholder="Add a todo…"
          className="min-w-0 flex-1 rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900"
        />
        <Button type="submit" busy={add.isPending}>
          Add
        </Button>
      </form>
    </section>
  );
}
