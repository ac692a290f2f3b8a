import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { type Todo, useTodos } from '../../api/todos';
import { Button, ErrorState, errorMessage, Loading } from '../../components/ui';
import { reorderedIds, TodoGroupDnd } from './todo-dnd';
import { TodoRow, type TodoRowActions } from './todo-row';
import { useAnchorTarget } from './use-anchor-target';

export function Todos({ boardId, taskId }: { boardId: string; taskId: string }) {
  const {
    list: todos,
    add,
    toggle,
    edit,
    reorder,
    remove,
  } = useTodos(boardId, taskId, (error) => toast.error(errorMessage(error)));
  const [editingId, setEditingId] = useState<string | null>(null);
  const highlighted = useAnchorTarget('todo', todos.isSuccess);
  const onDrop = (activeId: string, overId: string) => {
    const ids = reorderedIds(todos.data ?? [], activeId, overId);
    if (ids) reorder.mutate(ids);
  };
  const groupOf = (iteration: number) => (todos.data ?? []).filter((t) => t.iteration === iteration);
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
    edit.mutate(
      { todo, text: String(new FormData(event.currentTarget).get('text')) },
      { onSuccess: () => setEditingId(null) },
    );
  };
  const rowActions: TodoRowActions = {
    toggle: (todo) => toggle.mutate(todo),
    startEdit: (todo) => setEditingId(todo.id),
    cancelEdit: () => setEditingId(null),
    saveEdit,
    move,
    remove: (todo) => remove.mutate(todo),
  };
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
          <TodoGroupDnd group={groupOf(iteration)} onDrop={onDrop}>
            <ul className="space-y-1">
              {groupOf(iteration).map((todo, _index, list) => (
                <TodoRow
                  key={todo.id}
                  todo={todo}
                  first={list[0]?.id === todo.id}
                  last={list.at(-1)?.id === todo.id}
                  editing={editingId === todo.id}
                  busy={{ edit: edit.isPending, reorder: reorder.isPending }}
                  actions={rowActions}
                  highlighted={highlighted === todo.id}
                />
              ))}
            </ul>
          </TodoGroupDnd>
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
