import type { Clock } from '../../src/lib/time.js';

/**
 * A clock the test moves by hand, so timestamps, expiry and retry schedules are observable without
 * sleeping (and several rows never share a millisecond by accident).
 */
export class ManualClock implements Clock {
  constructor(public ms = Date.parse('2026-03-01T09:00:00.000Z')) {}

  now(): number {
    return this.ms;
  }

  /** Moves the clock forward by `ms` and returns the new time as an ISO string. */
  advance(ms = 1000): string {
    this.ms += ms;
    return new Date(this.ms).toISOString();
  }
}
