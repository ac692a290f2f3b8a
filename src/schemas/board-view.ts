import { Type } from '@sinclair/typebox';
import { Member } from './agents.js';
import { Nullable, StringEnum, Timestamp } from './common.js';

/*
 * The web UI's board page (docs/ui-api.md, "Board view and live updates"): the board view, the
 * histories and the live stream's events. The view and history routes under /api/ui serialise with
 * these; the UI takes its types from them (`import type`). The live stream writes its events itself
 * (server-sent events); test/live checks them against `LiveActivity`.
 */

/** Nullable without `anyOf`: a board view has thousands of cards, and this is one type check each. */
const IntegerOrNull = Type.Unsafe<number | null>({ type: ['integer', 'null'] });

/** A task as its card on the board shows it. */
export const Card = Type.Object({
  id: Type.String(),
  shortId: Type.String(),
  title: Type.String(),
  laneId: Type.String(),
  /** Dense index among the lane's non-archived tasks; null while archived. */
  position: IntegerOrNull,
  priority: Type.Integer(),
  tags: Type.Array(Type.String()),
  archived: Type.Boolean(),
  todos: Type.Object({ done: Type.Integer(), total: Type.Integer() }),
  commentCount: Type.Integer(),
  assetCount: Type.Integer(),
  /** Who the task is assigned to, in the order they were assigned. */
  assignees: Type.Array(Member),
  /** An agent is at work on it: `atWork` is not empty. */
  agentActive: Type.Boolean(),
  /**
   * The agents at work on it (changes in the last 10 minutes), newest first; each mark ends at `until`
   * unless a later change moves it.
   */
  atWork: Type.Array(Type.Object({ name: Type.String(), until: Timestamp })),
  updatedAt: Timestamp,
});

/**
 * A tag colour chosen on the board: a palette name (src/schemas/tag-colors.ts), typed as a string so
 * the UI applies a live `tag.color_changed` without knowing the palette.
 */
export const ChosenTagColor = Type.Object({ tag: Type.String(), color: Type.String() });

/** A lane as the view and the live stream show it. */
export const LaneView = Type.Object({ id: Type.String(), name: Type.String(), position: Type.Integer() });

/** The whole board on one snapshot; open the live stream after `activityId`. */
export const BoardView = Type.Object({
  board: Type.Object({ id: Type.String(), name: Type.String(), createdAt: Timestamp, updatedAt: Timestamp }),
  /** By position; `taskCount` counts non-archived tasks. */
  lanes: Type.Array(Type.Object({ ...LaneView.properties, taskCount: Type.Integer() })),
  /** By lane, then position (archived ones, when asked for, last within their lane). */
  tasks: Type.Array(Card),
  /** The tag colours chosen on the board, by tag (others show the colour derived from the name). */
  tagColors: Type.Array(ChosenTagColor),
  activityId: Type.Integer(),
});

export const ActivityActor = Type.Object({
  kind: StringEnum(['user', 'api_key', 'agent', 'system']),
  /** The person's, key's or agent's id; null for the CLI operator. */
  id: Nullable(Type.String()),
  name: Type.String(),
});

/** One entry of a board's or task's history (`todos.reordered` stands for one reorder's todo events). */
export const Activity = Type.Object({
  id: Type.Integer(),
  type: Type.String(),
  boardId: Type.String(),
  taskId: Nullable(Type.String()),
  actor: ActivityActor,
  origin: StringEnum(['ui', 'api', 'mcp', 'cli']),
  data: Type.Record(Type.String(), Type.Unknown()),
  createdAt: Timestamp,
});

/** A page of a history, newest first; pass `nextBefore` as `before` for the next (null: the last page). */
export const ActivityPage = Type.Object({ data: Type.Array(Activity), nextBefore: Nullable(Type.Integer()) });

/** The `data` of a live stream event: the activity, and the state it left where that is cheap. */
export const LiveActivity = Type.Object({
  ...Activity.properties,
  /** The task's card now (activities about a task); null when the task is gone. */
  card: Type.Optional(Nullable(Card)),
  /** All lanes now, by position (lane activities). */
  lanes: Type.Optional(Type.Array(LaneView)),
});
