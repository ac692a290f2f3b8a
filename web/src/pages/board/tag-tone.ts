/*
 * A tag's colour: the one its board chose (tag-colors.tsx), else one derived from the tag's name, so an
 * unchosen tag has the same colour on every card and board without storing anything. Colours are the
 * server's palette names (src/schemas/tag-colors.ts); each has a dot shade and a chip (text on a tint)
 * for light and dark mode, the chip's text at AA contrast or better on its tint. Class names are
 * written out whole so Tailwind finds them.
 */
import type { TagColorName } from '../../../../src/schemas/tag-colors.js';

export type { TagColorName };

/** The palette, in the server's order (test/unit/tag-colors.test.ts checks it). */
export const TAG_COLORS: readonly TagColorName[] = [
  'gray',
  'red',
  'orange',
  'yellow',
  'green',
  'teal',
  'blue',
  'purple',
  'pink',
];

export const TAG_COLOR_LABELS: Record<TagColorName, string> = {
  gray: 'Gray',
  red: 'Red',
  orange: 'Orange',
  yellow: 'Yellow',
  green: 'Green',
  teal: 'Teal',
  blue: 'Blue',
  purple: 'Purple',
  pink: 'Pink',
};

const DOTS: Record<TagColorName, string> = {
  gray: 'bg-zinc-500 dark:bg-zinc-400',
  red: 'bg-red-600 dark:bg-red-400',
  orange: 'bg-orange-600 dark:bg-orange-400',
  yellow: 'bg-yellow-500 dark:bg-yellow-300',
  green: 'bg-green-600 dark:bg-green-400',
  teal: 'bg-teal-600 dark:bg-teal-400',
  blue: 'bg-blue-600 dark:bg-blue-400',
  purple: 'bg-purple-600 dark:bg-purple-400',
  pink: 'bg-pink-600 dark:bg-pink-400',
};

const CHIPS: Record<TagColorName, string> = {
  gray: 'bg-zinc-100 text-zinc-800 ring-zinc-500/30 dark:bg-zinc-400/10 dark:text-zinc-200 dark:ring-zinc-400/30',
  red: 'bg-red-50 text-red-800 ring-red-600/25 dark:bg-red-400/10 dark:text-red-300 dark:ring-red-400/30',
  orange:
    'bg-orange-50 text-orange-800 ring-orange-600/25 dark:bg-orange-400/10 dark:text-orange-300 dark:ring-orange-400/30',
  yellow:
    'bg-yellow-50 text-yellow-800 ring-yellow-600/30 dark:bg-yellow-400/10 dark:text-yellow-200 dark:ring-yellow-400/30',
  green:
    'bg-green-50 text-green-800 ring-green-600/25 dark:bg-green-400/10 dark:text-green-300 dark:ring-green-400/30',
  teal: 'bg-teal-50 text-teal-800 ring-teal-600/25 dark:bg-teal-400/10 dark:text-teal-300 dark:ring-teal-400/30',
  blue: 'bg-blue-50 text-blue-800 ring-blue-600/25 dark:bg-blue-400/10 dark:text-blue-300 dark:ring-blue-400/30',
  purple:
    'bg-purple-50 text-purple-800 ring-purple-600/25 dark:bg-purple-400/10 dark:text-purple-300 dark:ring-purple-400/30',
  pink: 'bg-pink-50 text-pink-800 ring-pink-600/25 dark:bg-pink-400/10 dark:text-pink-300 dark:ring-pink-400/30',
};

/** Derived colours leave gray out: gray is a deliberate, quiet choice. */
const DERIVED = TAG_COLORS.filter((color) => color !== 'gray');

/** The colour of a tag its board chose nothing for (the server's derivedTagColor, the same hash). */
export function derivedTagColor(tag: string): TagColorName {
  let hash = 0;
  for (let i = 0; i < tag.length; i++) hash = (hash * 31 + tag.charCodeAt(i)) >>> 0;
  return DERIVED[hash % DERIVED.length] as TagColorName;
}

export function isTagColor(value: unknown): value is TagColorName {
  return typeof value === 'string' && (TAG_COLORS as readonly string[]).includes(value);
}

/** The dot beside a tag's text on a card. */
export function tagDotClass(color: TagColorName): string {
  return DOTS[color];
}

/** A tag chip: tinted background, coloured text, a faint ring (task page, menus). */
export function tagChipClass(color: TagColorName): string {
  return CHIPS[color];
}

/** The dot class of a tag as its name alone colours it (kept for callers without a board). */
export function tagTone(tag: string): string {
  return DOTS[derivedTagColor(tag)];
}
