import { Type } from '@sinclair/typebox';
import { LIMITS } from './limits.js';

/**
 * The tag colours a board may choose (issue 27): names, not CSS values, so each client draws them to
 * suit its own theme (the web UI has a light and a dark shade of each, web/src/pages/board/tag-tone.ts).
 * Like GitHub's and Linear's label colours, but from a fixed palette that keeps contrast in both modes.
 */
export const TAG_COLORS = [
  'gray',
  'red',
  'orange',
  'yellow',
  'green',
  'teal',
  'blue',
  'purple',
  'pink',
] as const;

export type TagColorName = (typeof TAG_COLORS)[number];

export const TagColor = Type.Union(
  TAG_COLORS.map((color) => Type.Literal(color)),
  { description: 'A colour of the fixed palette.' },
);

/** `PUT /api/ui/boards/:id/tag-colors`: the colour the tag shows now, and whether the board chose it. */
export const TagColorChoice = Type.Object({ tag: Type.String(), color: TagColor, chosen: Type.Boolean() });

/** One chosen colour; tags without one show the colour derived from their name. */
export const TagColorEntry = Type.Object(
  {
    tag: Type.String({ minLength: 1, maxLength: LIMITS.tagLength }),
    color: TagColor,
  },
  { examples: [{ tag: 'bug', color: 'red' }] },
);
