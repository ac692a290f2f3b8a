/*
 * The board view's shapes (docs/ui-api.md, "Board view and live updates"), built from the server's
 * schemas. Types only, with `.js` paths: web/src/live/apply-event.ts imports them, and the server's
 * unit tests (NodeNext resolution) type-check that file too.
 */
import type { Static } from '@sinclair/typebox';
import type { Lane as LaneSchema } from '../../../src/schemas/lanes.js';
import type { TaskSummary } from '../../../src/schemas/tasks.js';

type Summary = Static<typeof TaskSummary>;

/** A lane of the board view: the lane's fields and how many non-archived tasks it holds. */
export type Lane = Pick<Static<typeof LaneSchema>, 'id' | 'name' | 'position'> & { taskCount: number };

/** What placing a card on the board needs of it. */
export type CardPlace = Pick<Summary, 'id' | 'laneId' | 'position' | 'archived'>;

/**
 * A task as its card shows it: the task summary's fields, and the counts only the board view carries
 * (the UI API has no schema for them).
 */
export type Card = CardPlace &
  Pick<Summary, 'shortId' | 'title' | 'priority' | 'tags'> & {
    todos?: { done: number; total: number };
    commentCount?: number;
    assetCount?: number;
    agentActive?: boolean;
    /**
     * The agents at work on it (changes in the last 10 minutes), newest first; each mark ends at
     * `until` (ISO) unless a later change moves it.
     */
    atWork?: Array<{ name: string; until: string }>;
    /** Who the task is assigned to (the board view and its live cards carry them). */
    assignees?: Summary['assignees'];
  };

/** A tag colour the board chose (a palette name, src/schemas/tag-colors.ts). */
export interface TagColorEntry {
  tag: string;
  color: string;
}

/** The whole board on one snapshot; `activityId` is where its live stream starts. */
export interface BoardView<C extends CardPlace = Card> {
  board: { id: string; name: string };
  lanes: Lane[];
  tasks: C[];
  /** The tag colours the board chose, by tag. */
  tagColors?: TagColorEntry[];
  activityId: number;
}
