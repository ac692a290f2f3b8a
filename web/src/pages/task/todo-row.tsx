import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ArrowDown, ArrowUp, GripVertical, Pencil, Trash2 } from 'lucide-react';
import type { FormEvent } from 'react';
import type { Todo } from '../../api/todos';
import { Button } from '../../components/ui';
import { anchorId } from '../../lib/task-anchor';
import { HIGHLIGHT_CLASSES } from './use-anchor-target';

export interface TodoRowActions {
  toggle: (todo: Todo) => void;
  startEdit: (todo: Todo) => void;
  cancelEdit: () => void;
  saveEdit: (event: FormEvent<HTMLFormElement>, todo: Todo) => void;
  move: (todo: Todo, step: -1 | 1) => void;
  remove: (todo: Todo) => void;
}

/** One todo: drag handle (pointer or keyboard), tick, text, edit, move up/down, delete. */
export function TodoRow({
  todo,
  first,
  last,
  editing,
  busy,
  actions,
  highlighted,
}: {
  todo: Todo;
  first: boolean;
  last: boolean;
  editing: boolean;
  busy: { edit: boolean; reorder: boolean };
  actions: TodoRowActions;
  /** The address points at this todo (use-anchor-target.ts): marked briefly. */
  highlighted: boolean;
}) {
  const sortable = useSortable({ id: todo.id, disabled: editing });
  return (
    <li
      ref={sortable.setNodeRef}
      id={anchorId('todo', todo.id)}
      tabIndex={-1}
      data-highlighted={highlighted || undefined}
      style={{ transform: CSS.Translate.toString(sortable.transform), transition: sortable.transition }}
      className={`flex items-center gap-0.5 rounded text-sm ${HIGHLIGHT_CLASSES} ${sortable.isDragging ? 'relative z-10 bg-white shadow-md dark:bg-zinc-900' : ''}`}
    >
      <button
        type="button"
        {...sortable.attributes}
        {...sortable.listeners}
        aria-label={`Drag todo ${todo.text}`}
        className="cursor-grab touch-none rounded p-0.5 text-zinc-500 hover:bg-zinc-100 dark:hover:bg-zinc-800"
      >
        <GripVertical aria-hidden className="size-3.5" />
      </button>
      {editing ? (
        <form onSubmit={(event) => actions.saveEdit(event, todo)} className="flex flex-1 gap-1">
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
            onKeyDown={(event) => event.key === 'Escape' && actions.cancelEdit()}
            className="min-w-0 flex-1 rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900"
          />
          <Button type="submit" className="min-h-7 px-2" busy={busy.edit}>
            Save
          </Button>
        </form>
      ) : (
        <>
          <input
            id={`todo-done-${todo.id}`}
            type="checkbox"
            checked={todo.done}
            onChange={() => actions.toggle(todo)}
          />
          <label
            htmlFor={`todo-done-${todo.id}`}
            className={`ml-1 flex-1 ${todo.done ? 'text-zinc-600 line-through dark:text-zinc-400' : ''}`}
          >
            {todo.text}
          </label>
          <Button
            variant="ghost"
            className="min-h-7 px-1.5"
            onClick={() => actions.startEdit(todo)}
            aria-label={`Edit todo ${todo.text}`}
          >
            <Pencil aria-hidden className="size-3.5" />
          </Button>
        </>
      )}
      <Button
        variant="ghost"
        className="min-h-7 px-1.5 disabled:opacity-40"
        disabled={busy.reorder || first}
        onClick={() => actions.move(todo, -1)}
        aria-label={`Move todo ${todo.text} up`}
      >
        <ArrowUp aria-hidden className="size-3.5" />
      </Button>
      <Button
        variant="ghost"
        className="min-h-7 px-1.5 disabled:opacity-40"
        disabled={busy.reorder || last}
        onClick={() => actions.move(todo, 1)}
        aria-label={`Move todo ${todo.text} down`}
      >
        <ArrowDown aria-hidden className="size-3.5" />
      </Button>
      <Button
        variant="ghost"
        className="min-h-7 px-1.5"
        onClick={() => actions.remove(todo)}
        aria-label={`Delete todo ${todo.text}`}
      >
        <Trash2 aria-hidden className="size-3.5" />
      </Button>
    </li>
  );
}
