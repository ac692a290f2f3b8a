/*
 * Types only, with `.js` paths: the server's unit tests run this file too (NodeNext resolution).
 */
import type { Static } from '@sinclair/typebox';
import type { LiveActivity as LiveActivitySchema } from '../../../src/schemas/board-view.js';
import type { BoardView, CardPlace, Lane, TagColorEntry } from '../api/board-view.js';

/** The `data` of a live stream event (docs/ui-api.md, "The live stream"). */
export type LiveActivity = Static<typeof LiveActivitySchema>;

/**
 * Applies one live event to a board snapshot, without a round trip: the event carries the state it
 * left (the card, the lanes), so applying it twice is harmless. Returns `'reload'` when the snapshot
 * cannot be brought up to date from the event (a `reset`, or a board that is gone), and the snapshot
 * itself when the event changes nothing it shows.
 */
export function applyLiveEvent<C extends CardPlace, B extends BoardView<C>>(
  board: B,
  type: string,
  activity: LiveActivity | null,
  showArchived: boolean,
): B | 'reload' {
  if (type === 'reset' || type === 'board.deleted' || activity === null) return 'reload';
  let next = board;
  if (type === 'board.updated') {
    const name = (activity.data.board as { name?: unknown } | undefined)?.name;
    if (typeof name === 'string') next = { ...next, board: { ...next.board, name } };
  }
  if (type === 'tag.color_changed') {
    const tagColors = tagColorsAfter(next.tagColors ?? [], activity.data);
    if (tagColors) next = { ...next, tagColors };
  }
  if (activity.lanes) {
    const laneIds = new Set(activity.lanes.map((lane) => lane.id));
    next = {
      ...next,
      lanes: activity.lanes.map((lane) => ({ ...lane, taskCount: 0 })),
      // A deleted lane takes its tasks with it.
      tasks: next.tasks.filter((card) => laneIds.has(card.laneId)),
    };
  }
  if (activity.taskId !== null && activity.card !== undefined) {
    next = placeCard(next, activity.taskId, activity.card as C | null, showArchived);
  }
  if (next === board) return board;
  return {
    ...next,
    lanes: withCounts(next.lanes, next.tasks),
    activityId: Math.max(board.activityId, activity.id),
  };
}

/**
 * Puts the card where the server says (or removes it), and renumbers the lanes it left and entered so
 * positions stay dense as the server keeps them.
 */
function placeCard<C extends CardPlace, B extends BoardView<C>>(
  board: B,
  taskId: string,
  card: C | null,
  showArchived: boolean,
): B {
  const previous = board.tasks.find((task) => task.id === taskId);
  const visible = card !== null && (showArchived || !card.archived);
  if (!previous && !visible) return board;
  const others = board.tasks.filter((task) => task.id !== taskId);
  const touched = new Set([previous?.laneId, card?.laneId].filter((id): id is string => id !== undefined));
  const untouched = others.filter((task) => !touched.has(task.laneId));
  const renumbered: C[] = [];
  for (const laneId of touched) {
    const active = others
      .filter((task) => task.laneId === laneId && !task.archived)
      .sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
    if (visible && card.laneId === laneId && !card.archived) {
      active.splice(Math.min(card.position ?? active.length, active.length), 0, card);
    }
    renumbered.push(
      ...active.map((task, position) => (task.position === position ? task : { ...task, position })),
    );
    renumbered.push(...others.filter((task) => task.laneId === laneId && task.archived));
    if (visible && card.laneId === laneId && card.archived) renumbered.push(card);
  }
  return { ...board, tasks: [...untouched, ...renumbered] };
}

function withCounts(lanes: Lane[], tasks: readonly CardPlace[]): Lane[] {
  const counts = new Map<string, number>();
  for (const task of tasks) if (!task.archived) counts.set(task.laneId, (counts.get(task.laneId) ?? 0) + 1);
  return lanes.map((lane) => {
    const taskCount = counts.get(lane.id) ?? 0;
    return lane.taskCount === taskCount ? lane : { ...lane, taskCount };
  });
}

/**
 * A board's chosen tag colours after a `tag.color_changed` event (data `{tag, color}`, color null when
 * the tag went back to its derived colour); null when the data is not such an event's.
 */
export function tagColorsAfter(
  colors: readonly TagColorEntry[],
  data: Record<string, unknown>,
): TagColorEntry[] | null {
  const { tag, color } = data;
  if (typeof tag !== 'string' || (color !== null && typeof color !== 'string')) return null;
  const others = colors.filter((entry) => entry.tag !== tag);
  if (color === null) return others;
  return [...others, { tag, color }].sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
}
