import { startTransition, useEffect, useState } from 'react';

/** Boards with fewer tasks than this render every lane's cards at once. */
export const REVEAL_FROM_TASKS = 400;
/** Lanes whose cards render in the first pass: none, the lanes' frames show first (one task each). */
const FIRST_LANES = 0;

/**
 * How many lanes (from the left) show their cards yet. A large board renders its lanes' cards one lane
 * per task, after the lanes' frames, so no single task of the main thread mounts every lane's cards and
 * their drag-and-drop registrations (issue 12: no long task over 200 ms on a board of 4 000 tasks;
 * rendering them all at once measured 450–650 ms). Each later lane renders as a transition, which React
 * time-slices and which user input interrupts.
 */
export function useRevealedLanes(laneCount: number, taskCount: number | undefined): number {
  // Decided once, when the board's size is first known; later changes to the board reveal nothing anew.
  const [revealed, setRevealed] = useState<number | null>(null);
  if (revealed === null && taskCount !== undefined) {
    setRevealed(taskCount < REVEAL_FROM_TASKS ? Number.POSITIVE_INFINITY : FIRST_LANES);
  }
  useEffect(() => {
    if (revealed === null || revealed >= laneCount) return;
    const next = setTimeout(() => startTransition(() => setRevealed((count) => (count ?? 0) + 1)), 0);
    return () => clearTimeout(next);
  }, [revealed, laneCount]);
  return revealed ?? 0;
}
