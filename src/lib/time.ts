/** A clock that tests can replace, so time-based behaviour is tested without sleeping. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export function isoNow(clock: Clock = systemClock): string {
  return new Date(clock.now()).toISOString();
}
