/*
 * The board view's shapes (docs/ui-api.md, "Board view and live updates"), the server's schemas of
 * `GET /api/ui/boards/:id/view` and its live events. Types only, with `.js` paths:
 * web/src/live/apply-event.ts imports them, and the server's unit tests (NodeNext resolution)
 * type-check that file too.
 */
import type { Static } from '@sinclair/typebox';
import type { BoardView as BoardViewSchema, Card as CardSchema } from '../../../src/schemas/board-view.js';

type View = Static<typeof BoardViewSchema>;

/** A lane of the board view: the lane's fields and how many non-archived tasks it holds. */
export type Lane = View['lanes'][number];

/** A task as its card shows it. */
export type Card = Static<typeof CardSchema>;

/** What placing a card on the board needs of it. */
export type CardPlace = Pick<Card, 'id' | 'laneId' | 'position' | 'archived'>;

/** A tag colour chosen on the board (tags not listed show the colour derived from their name). */
export type TagColorEntry = NonNullable<View['tagColors']>[number];

/** The whole board on one snapshot; `activityId` is where its live stream starts. */
export type BoardView<C extends CardPlace = Card> = Omit<View, 'tasks'> & { tasks: C[] };
