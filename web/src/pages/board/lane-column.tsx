import { useDroppable } from '@dnd-kit/core';
import { SortableContext, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { GripVertical, MoreHorizontal } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { type FormEvent, memo, useState } from 'react';
import type { Card, Lane } from '../../api/boards';
import { menuContainer } from '../../components/menu-container';
import { Button, errorMessage, fieldError } from '../../components/ui';
import { laneDragId, laneDropId } from './board-dnd';
import { type CardActions, TaskCard } from './card';
import { useSameArray } from './stable';
import { VIRTUAL_FROM, VirtualCards } from './virtual-cards';

const MENU_ITEM =
  'flex cursor-default items-center gap-2 rounded px-2 py-1.5 text-sm outline-none data-[highlighted]:bg-zinc-100 dark:data-[highlighted]:bg-zinc-800';

export interface LaneActions extends CardActions {
  addTask: (laneId: string, title: string) => Promise<unknown>;
  rename: (lane: Lane) => void;
  remove: (lane: Lane) => void;
}

/** One lane; memoised: it re-renders when its lane, its cards or whether it is revealed change. */
export const LaneColumn = memo(function LaneColumn({
  lane,
  cards,
  revealed,
  actions,
  editingId,
}: {
  lane: Lane;
  cards: Card[];
  /** False while a large board has not rendered this lane's cards yet (see reveal.ts). */
  revealed: boolean;
  actions: LaneActions;
  /** The card whose title is being edited in place, if it is in this lane. */
  editingId?: string;
}) {
  const [error, setError] = useState<unknown>(null);
  /*
   * The title is taken and the field emptied at once, and the field stays open: the next title can be
   * typed and sent while the first is on its way (its card shows from the live event, often before the
   * server's answer). A refused title comes back into the field if nothing new was typed there.
   */
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const input = event.currentTarget.elements.namedItem('title') as HTMLInputElement;
    const title = input.value.trim();
    if (!title) return;
    input.value = '';
    setError(null);
    actions.addTask(lane.id, title).catch((failure: unknown) => {
      setError(failure);
      if (input.value === '') input.value = title;
    });
  };
  const headingId = `lane-${lane.id}`;
  const sortable = useSortable({ id: laneDragId(lane.id) });
  const drop = useDroppable({ id: laneDropId(lane.id) });
  // The same ids keep the same array: a card changed in place re-renders that card only (stable.ts).
  const ids = useSameArray(cards.map((card) => card.id));
  return (
    <section
      ref={sortable.setNodeRef}
      style={{ transform: CSS.Translate.toString(sortable.transform), transition: sortable.transition }}
      aria-labelledby={headingId}
      className={`flex w-[calc(100vw-3rem)] shrink-0 snap-start flex-col rounded-lg sm:w-64 bg-zinc-50 p-2 dark:bg-zinc-900/50 ${sortable.isDragging ? 'z-10 opacity-70' : ''}`}
    >
      <div className="mb-2 flex items-center gap-1 px-1">
        <button
          type="button"
          {...sortable.attributes}
          {...sortable.listeners}
          aria-label={`Drag lane ${lane.name}`}
          className="cursor-grab touch-none rounded p-0.5 text-zinc-500 hover:bg-zinc-200 dark:hover:bg-zinc-800"
        >
          <GripVertical aria-hidden className="size-4" />
        </button>
        <h2 id={headingId} className="min-w-0 flex-1 truncate text-sm font-semibold">
          {lane.name}
        </h2>
        <span className="text-xs text-zinc-600 dark:text-zinc-400">
          {lane.taskCount}
          <span className="sr-only"> tasks</span>
        </span>
        <DropdownMenu.Root>
          <DropdownMenu.Trigger
            className="rounded p-1 hover:bg-zinc-200 dark:hover:bg-zinc-800"
            aria-label={`Lane ${lane.name} actions`}
          >
            <MoreHorizontal aria-hidden className="size-4" />
          </DropdownMenu.Trigger>
          <DropdownMenu.Portal container={menuContainer()}>
            <DropdownMenu.Content
              align="end"
              className="z-50 min-w-36 rounded-md border border-zinc-200 bg-white p-1 shadow-lg dark:border-zinc-800 dark:bg-zinc-900"
            >
              <DropdownMenu.Item className={MENU_ITEM} onSelect={() => actions.rename(lane)}>
                Rename lane
              </DropdownMenu.Item>
              <DropdownMenu.Item
                className={`${MENU_ITEM} text-red-700 dark:text-red-400`}
                onSelect={() => actions.remove(lane)}
              >
                Delete lane
              </DropdownMenu.Item>
            </DropdownMenu.Content>
          </DropdownMenu.Portal>
        </DropdownMenu.Root>
      </div>
      <div
        ref={drop.setNodeRef}
        className={`min-h-10 rounded-md ${drop.isOver ? 'ring-2 ring-accent-500' : ''}`}
      >
        {cards.length === 0 || !revealed ? (
          <p className="px-1 py-2 text-xs text-zinc-600 dark:text-zinc-400">
            {cards.length === 0 ? 'No tasks.' : 'Loading tasks…'}
          </p>
        ) : (
          <SortableContext items={ids} strategy={verticalListSortingStrategy}>
            {cards.length >= VIRTUAL_FROM ? (
              <VirtualCards laneId={lane.id} cards={cards} actions={actions} editingId={editingId} />
            ) : (
              <ul className="space-y-1.5">
                {cards.map((card) => (
                  <TaskCard key={card.id} card={card} actions={actions} editing={card.id === editingId} />
                ))}
              </ul>
            )}
          </SortableContext>
        )}
      </div>
      <form onSubmit={submit} className="mt-2 flex gap-1">
        <label htmlFor={`new-task-${lane.id}`} className="sr-only">
          New task in {lane.name}
        </label>
        <input
          id={`new-task-${lane.id}`}
          name="title"
          placeholder="Add a task…"
          aria-invalid={error ? true : undefined}
          className="min-w-0 flex-1 rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900"
        />
        <Button type="submit" className="min-h-8 px-2 py-0.5">
          Add
        </Button>
      </form>
      {error ? (
        <p role="alert" className="mt-1 text-xs text-red-700 dark:text-red-400">
          {fieldError(error, 'title') ?? errorMessage(error)}
        </p>
      ) : null}
    </section>
  );
});
