import { useRef } from 'react';

/*
 * Referential stability for the board's props (issue 27). dnd-kit's sortable contexts hand their
 * `items` to every card and lane through React context, which passes through `memo`: a new array with
 * the same ids re-renders every mounted card of the lane. These keep the old array when nothing in it
 * changed.
 */

/** `next`, or `previous` when both hold the same items in the same order. */
export function sameOr<T>(previous: readonly T[] | undefined, next: T[]): T[] {
  if (!previous || previous.length !== next.length) return next;
  for (let i = 0; i < next.length; i++) if (previous[i] !== next[i]) return next;
  return previous as T[];
}

/** The array of the last render while its items are the same (strings compare by value). */
export function useSameArray<T>(next: T[]): T[] {
  const last = useRef<T[]>(next);
  last.current = sameOr(last.current, next);
  return last.current;
}
