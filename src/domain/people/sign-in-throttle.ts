import {
  clearFailures,
  deleteFailuresBefore,
  failuresSince,
  recordFailure,
} from '../../db/repositories/sign-in-failures.js';
import type { Executor } from '../../db/schema.js';
import type { Clock } from '../../lib/time.js';
import { DomainError } from '../errors.js';

export interface ThrottleLimits {
  /** Failures allowed per account (email) in the window before sign-in is refused. */
  perAccount: number;
  /** Failures allowed per client address in the window. */
  perAddress: number;
  windowMs: number;
}

export const DEFAULT_THROTTLE: ThrottleLimits = { perAccount: 5, perAddress: 20, windowMs: 15 * 60_000 };

/** 429 with the seconds until the oldest counted failure leaves the window (for `Retry-After`). */
export class ThrottledError extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
    super(
      'rate_limited',
      `Too many sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    );
  }
}

/**
 * Counts failed password checks per account and per address in the database, so every instance sees
 * the same counts. Checked before the password is verified: a throttled attempt costs no hashing and
 * reveals nothing, even with the right password.
 */
export class SignInThrottle {
  constructor(
    private readonly clock: Clock,
    private readonly limits: ThrottleLimits = DEFAULT_THROTTLE,
  ) {}

  async check(db: Executor, account: string, address: string | null): Promise<void> {
    const now = this.clock.now();
    const since = new Date(now - this.limits.windowMs).toISOString();
    const subjects: Array<[string, number]> = [[`account:${account}`, this.limits.perAccount]];
    if (address) subjects.push([`address:${address}`, this.limits.perAddress]);
    let retryAfterMs = 0;
    for (const [subject, limit] of subjects) {
      const { count, oldest } = await failuresSince(db, subject, since);
      if (count >= limit && oldest !== null) {
        retryAfterMs = Math.max(retryAfterMs, Date.parse(oldest) + this.limits.windowMs - now);
      }
    }
    if (retryAfterMs > 0) throw new ThrottledError(Math.max(1, Math.ceil(retryAfterMs / 1000)));
  }

  async failed(db: Executor, account: string, address: string | null): Promise<void> {
    const now = this.clock.now();
    const subjects = [`account:${account}`];
    if (address) subjects.push(`address:${address}`);
    await recordFailure(db, subjects, new Date(now).toISOString());
    // Old rows are of no use to anyone: prune them here rather than with another timer.
    await deleteFailuresBefore(db, new Date(now - this.limits.windowMs).toISOString());
  }

  async succeeded(db: Executor, account: string): Promise<void> {
    await clearFailures(db, `account:${account}`);
  }
}
