import type { Clock } from '../lib/time.js';

/** The time a run may still take; every wait and request is bounded by it. */
export interface Deadline {
  remainingMs(): number;
}

export function deadlineAfter(clock: Clock, budgetMs: number): Deadline {
  const end = clock.now() + budgetMs;
  return { remainingMs: () => Math.max(0, end - clock.now()) };
}
