import type { ShiftRange } from '../db/schema.js';

export type { ShiftRange } from '../db/schema.js';

/**
 * Dense positions (0..n-1) arithmetic shared by lanes and tasks. The SQL that applies a move lives in
 * the repositories; these functions decide what the move is.
 */

/** Clamps a requested insert position into 0..count (past the end means last). */
export function clampInsertPosition(requested: number | undefined, count: number): number {
  if (requested === undefined || requested > count) return count;
  return Math.max(0, requested);
}

/**
 * Moving one item from `from` to `to` within one list of `count` items: the final position (clamped to
 * the last index) and the range of the other items that shift, or null when nothing moves.
 */
export function moveWithinList(
  from: number,
  requested: number | undefined,
  count: number,
): { to: number; shift: ShiftRange | null } {
  const last = count - 1;
  const to = requested === undefined || requested > last ? last : Math.max(0, requested);
  if (to === from) return { to, shift: null };
  return to > from
    ? { to, shift: { from: from + 1, to, delta: -1 } }
    : { to, shift: { from: to, to: from - 1, delta: 1 } };
}

/**
 * A task rank strictly between its neighbours' (`before` undefined: the first place, before `after`),
 * or null when no double lies between them and the tasks from `after` on must be given fresh ranks.
 */
export function rankBetween(before: number | undefined, after: number): number | null {
  const rank = before === undefined ? after - 1 : before + (after - before) / 2;
  return (before === undefined || rank > before) && rank < after ? rank : null;
}
