import {
  type Announcements,
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, verticalListSortingStrategy } from '@dnd-kit/sortable';
import type { ReactNode } from 'react';
import type { Todo } from '../../api/todos';

/**
 * The whole list's ids after moving `activeId` to where `overId` is, within one iteration (the API
 * reorders the task's todos as one list; a drag never leaves its iteration group). Null: nothing moves.
 */
export function reorderedIds(list: Todo[], activeId: string, overId: string): string[] | null {
  const from = list.findIndex((t) => t.id === activeId);
  const to = list.findIndex((t) => t.id === overId);
  if (from < 0 || to < 0 || from === to || list[from]!.iteration !== list[to]!.iteration) return null;
  const ids = list.map((t) => t.id);
  ids.splice(to, 0, ...ids.splice(from, 1));
  return ids;
}

function announcements(group: Todo[]): Announcements {
  const text = (id: string | number) => group.find((t) => t.id === id)?.text ?? '';
  const place = (id: string | number | undefined) =>
    `position ${group.findIndex((t) => t.id === id) + 1} of ${group.length}`;
  return {
    onDragStart: ({ active }) => `Picked up todo “${text(active.id)}”, at ${place(active.id)}.`,
    onDragOver: ({ active, over }) => `Todo “${text(active.id)}” is over ${place(over?.id)}.`,
    onDragEnd: ({ active, over }) => `Todo “${text(active.id)}” was dropped at ${place(over?.id)}.`,
    onDragCancel: ({ active }) => `Dragging was cancelled. Todo “${text(active.id)}” is back where it was.`,
  };
}

/** One iteration's todos as a sortable list: the pointer or the keyboard (Space, arrows, Space). */
export function TodoGroupDnd({
  group,
  onDrop,
  children,
}: {
  group: Todo[];
  onDrop: (activeId: string, overId: string) => void;
  children: ReactNode;
}) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      accessibility={{ announcements: announcements(group) }}
      onDragEnd={({ active, over }) => {
        if (over) onDrop(String(active.id), String(over.id));
      }}
    >
      <SortableContext items={group.map((t) => t.id)} strategy={verticalListSortingStrategy}>
        {children}
      </SortableContext>
    </DndContext>
  );
}
