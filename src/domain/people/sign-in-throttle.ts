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

const minutesText = (minutes: number) => `${minutes} minute${minutes === 1 ? '' : 's'}`;

/**
 * 429 with the seconds until the oldest counted failure leaves the window (for `Retry-After`). A
 * password check (before revealing a key) counts against the same account as sign-in, and says so.
 */
export class ThrottledError extends DomainError {
  constructor(
    readonly retryAfterSeconds: number,
    during: 'sign-in' | 'password-check' = 'sign-in',
  ) {
    const minutes = minutesText(Math.max(1, Math.ceil(retryAfterSeconds / 60)));
    super(
      'rate_limited',
      during === 'sign-in'
        ? `Too many sign-in attempts. Try again in ${minutes}.`
        : `Too many wrong passwords: revealing keys and signing in to your account are refused for ${minutes}.`,
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

  /** What a wrong password costs, for a password check's answer (the Reveal dialog shows it). */
  wrongPasswordCost(): string {
    const window = minutesText(Math.round(this.limits.windowMs / 60_000));
    return `After ${this.limits.perAccount} wrong passwords within ${window}, revealing keys and signing in to your account are refused for up to ${window}.`;
  }

  async check(
    db: Executor,
    account: string,
    address: string | null,
    during: 'sign-in' | 'password-check' = 'sign-in',
  ): Promise<void> {
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
    if (retryAfterMs > 0) throw new ThrottledError(Math.max(1, Math.ceil(retryAfterMs / 1000)), during);
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
