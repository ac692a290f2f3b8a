import {
  type Announcements,
  type CollisionDetection,
  closestCorners,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  horizontalListSortingStrategy,
  SortableContext,
  sortableKeyboardCoordinates,
} from '@dnd-kit/sortable';
import { type ReactNode, useMemo } from 'react';
import type { BoardView } from '../../api/boards';
import { useSameArray } from './stable';

/** Ids of the draggables and drop zones: cards use the task id; lanes and their drop zones are prefixed. */
export const laneDragId = (laneId: string) => `lane:${laneId}`;
export const laneDropId = (laneId: string) => `drop:${laneId}`;
const unprefix = (id: string | number, prefix: string) =>
  typeof id === 'string' && id.startsWith(prefix) ? id.slice(prefix.length) : null;

export type Drop =
  | { kind: 'task'; taskId: string; laneId: string; position: number }
  | { kind: 'lane'; laneId: string; position: number };

/** The tasks of a lane the API counts positions over (dense, archived ones excluded), in order. */
const laneTasks = (data: BoardView, laneId: string) =>
  data.tasks.filter((t) => t.laneId === laneId && !t.archived);

/**
 * Where a drop puts the dragged thing, in the API's terms (dense positions), or null when nothing
 * moves. Dropped on a card of its own lane, a card takes that card's place (like arrayMove); on a card
 * of another lane, it goes before or after it depending on which half it was dropped on; on a lane's
 * empty space, last.
 */
export function dropTarget(data: BoardView, event: DragEndEvent): Drop | null {
  const { active, over } = event;
  if (!over) return null;
  const draggedLane = unprefix(active.id, 'lane:');
  if (draggedLane) {
    const overLane = unprefix(over.id, 'lane:') ?? unprefix(over.id, 'drop:');
    const overCard = data.tasks.find((t) => t.id === over.id);
    const targetLane = overLane ?? overCard?.laneId;
    const from = data.lanes.findIndex((l) => l.id === draggedLane);
    const to = data.lanes.findIndex((l) => l.id === targetLane);
    return to < 0 || to === from ? null : { kind: 'lane', laneId: draggedLane, position: to };
  }
  const card = data.tasks.find((t) => t.id === active.id);
  if (!card || card.archived) return null;
  const dropLane = unprefix(over.id, 'drop:') ?? unprefix(over.id, 'lane:');
  if (dropLane) {
    if (dropLane === card.laneId) return null;
    return { kind: 'task', taskId: card.id, laneId: dropLane, position: laneTasks(data, dropLane).length };
  }
  const overCard = data.tasks.find((t) => t.id === over.id);
  if (!overCard || overCard.archived) return null;
  const list = laneTasks(data, overCard.laneId);
  const overIndex = list.findIndex((t) => t.id === overCard.id);
  if (overCard.laneId === card.laneId) {
    const from = list.findIndex((t) => t.id === card.id);
    return from === overIndex
      ? null
      : { kind: 'task', taskId: card.id, laneId: card.laneId, position: overIndex };
  }
  const dragged = active.rect.current.translated;
  const below = dragged ? dragged.top + dragged.height / 2 > over.rect.top + over.rect.height / 2 : false;
  return { kind: 'task', taskId: card.id, laneId: overCard.laneId, position: overIndex + (below ? 1 : 0) };
}

/** Cards land on cards and lanes' drop zones; lanes only on lanes. */
const collisions: CollisionDetection = (args) => {
  const draggingLane = String(args.active.id).startsWith('lane:');
  const droppableContainers = args.droppableContainers.filter(
    (c) => String(c.id).startsWith('lane:') === draggingLane,
  );
  return closestCorners({ ...args, droppableContainers });
};

function announcements(data: BoardView): Announcements {
  const describe = (id: string | number | undefined) => {
    if (id === undefined) return 'nowhere';
    const lane = data.lanes.find((l) => l.id === (unprefix(id, 'lane:') ?? unprefix(id, 'drop:')));
    if (lane) return `lane ${lane.name}`;
    const card = data.tasks.find((t) => t.id === id);
    if (!card) return 'nowhere';
    const list = laneTasks(data, card.laneId);
    const laneName = data.lanes.find((l) => l.id === card.laneId)?.name ?? '';
    return `position ${list.findIndex((t) => t.id === card.id) + 1} of ${list.length} in lane ${laneName}`;
  };
  const name = (id: string | number) => {
    const lane = data.lanes.find((l) => l.id === unprefix(id, 'lane:'));
    if (lane) return `Lane ${lane.name}`;
    return `Task “${data.tasks.find((t) => t.id === id)?.title ?? ''}”`;
  };
  return {
    onDragStart: ({ active }) => `Picked up ${name(active.id)}, at ${describe(active.id)}.`,
    onDragOver: ({ active, over }) => `${name(active.id)} is over ${describe(over?.id)}.`,
    onDragEnd: ({ active, over }) =>
      over ? `${name(active.id)} was dropped at ${describe(over.id)}.` : `${name(active.id)} was dropped.`,
    onDragCancel: ({ active }) => `Dragging was cancelled. ${name(active.id)} is back where it was.`,
  };
}

/*
 * The sensors' options, created once: useSensor memoises on them, and new options on each render made new
 * activators, a new dnd-kit context, and a re-render of every card and lane on the page (issue 27).
 */
const POINTER_OPTIONS = { activationConstraint: { distance: 5 } };
const KEYBOARD_OPTIONS = { coordinateGetter: sortableKeyboardCoordinates };

/** Drag and drop for the board: pointer and keyboard (space to pick up, arrows to move, space to drop). */
export function BoardDnd({
  data,
  onDrop,
  children,
}: {
  data: BoardView;
  onDrop: (drop: Drop) => void;
  children: ReactNode;
}) {
  // The lanes' ids and the announcements change with the board, not with each render of the page: a
  // new `items` array is a new sortable context, which re-renders every lane (issue 27).
  const laneIds = useSameArray(data.lanes.map((l) => laneDragId(l.id)));
  const announced = useMemo(() => announcements(data), [data]);
  const sensors = useSensors(
    useSensor(PointerSensor, POINTER_OPTIONS),
    useSensor(KeyboardSensor, KEYBOARD_OPTIONS),
  );
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={collisions}
      accessibility={{
        announcements: announced,
        screenReaderInstructions: {
          draggable:
            'To move this, press space or enter. Use the arrow keys to move it, space or enter to drop it, escape to cancel.',
        },
      }}
      onDragEnd={(event) => {
        const drop = dropTarget(data, event);
        if (drop) onDrop(drop);
      }}
    >
      <SortableContext items={laneIds} strategy={horizontalListSortingStrategy}>
        {children}
      </SortableContext>
    </DndContext>
  );
}
