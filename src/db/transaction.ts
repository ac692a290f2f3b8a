import { setTimeout as delay } from 'node:timers/promises';
import type { Transaction } from 'kysely';
import type { Database } from './database.js';
import type { DB, Dialect } from './schema.js';

/**
 * A unit of work: the open transaction, work to run just before it commits (inside it), and callbacks
 * that must run only once it has committed.
 */
export interface Tx {
  readonly db: Transaction<DB>;
  readonly dialect: Dialect;
  /** Runs inside the transaction after the work, once per key (later registrations of a key are ignored). */
  beforeCommit(key: string, work: () => Promise<void>): void;
  afterCommit(callback: () => void): void;
}

/** The transaction lost to concurrent ones every time it was tried (callers answer 409 conflict). */
export class TransactionConflictError extends Error {
  constructor(readonly attempts: number) {
    super(`transaction rolled back by concurrent transactions ${attempts} times`);
    this.name = 'TransactionConflictError';
  }
}

export const MAX_TRANSACTION_ATTEMPTS = 5;

// deadlock_detected and serialization_failure: PostgreSQL rolled the whole transaction back, so running
// it again is safe (nothing of it was committed, and after-commit callbacks belong to one attempt).
const RETRYABLE_PG_CODES = new Set(['40P01', '40001']);

export function isRetryableConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && RETRYABLE_PG_CODES.has(code);
}

/**
 * The one place transactions start: runs `work` in a transaction, then its after-commit callbacks. A
 * deadlock or serialization failure runs the whole work again (after a short random pause, so the
 * transactions that collided do not collide again in step); after MAX_TRANSACTION_ATTEMPTS it throws
 * TransactionConflictError.
 */
export async function inTransaction<T>(database: Database, work: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runOnce(database, work);
    } catch (error) {
      if (!isRetryableConflict(error)) throw error;
      if (attempt >= MAX_TRANSACTION_ATTEMPTS) throw new TransactionConflictError(attempt);
      await delay(Math.random() * 10 * attempt);
    }
  }
}

async function runOnce<T>(database: Database, work: (tx: Tx) => Promise<T>): Promise<T> {
  const callbacks: Array<() => void> = [];
  const result = await database.kysely.transaction().execute(async (trx) => {
    const finishers = new Map<string, () => Promise<void>>();
    const value = await work({
      db: trx,
      dialect: database.dialect,
      beforeCommit: (key, finisher) => {
        if (!finishers.has(key)) finishers.set(key, finisher);
      },
      afterCommit: (callback) => callbacks.push(callback),
    });
    for (const finisher of finishers.values()) await finisher();
    return value;
  });
  for (const callback of callbacks) callback();
  return result;
}
