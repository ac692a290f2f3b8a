import { setTimeout as delay } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { Database } from './database.js';
import type { DB, Dialect } from './schema.js';

/**
 * A unit of work: the open transaction, work to run just before it commits (inside it), and callbacks
 * that must run only once it has committed.
 */
export interface Tx {
  /** Bound to the transaction's one connection. */
  readonly db: Kysely<DB>;
  readonly dialect: Dialect;
  /** Runs inside the transaction after the work, once per key (later registrations of a key are ignored). */
  beforeCommit(key: string, work: () => Promise<void>): void;
  /**
   * PostgreSQL only: a statement without parameters (values inlined as escaped literals) sent in the
   * same round trip as COMMIT, after the beforeCommit work; `committed` gets its rows once that
   * committed. Writes that nothing in the transaction reads back (activity rows) cost no round trip
   * of their own this way.
   */
  atCommit(statement: string, committed?: (rows: unknown[]) => void): void;
  afterCommit(callback: () => void): void;
  /**
   * State kept for this attempt of the transaction, one value per `owner` (made by `create` on first
   * use): what a recorder gathers until commit. Cheaper than a WeakMap keyed by the transaction, which
   * costs about half a microsecond per fresh key.
   */
  local<T>(owner: object, create: () => T): T;
  /**
   * Wakes listeners on `channel` once the transaction has committed. On PostgreSQL a NOTIFY sent just
   * after commit and batched (see pg-notifier.ts); nothing on SQLite, where one process owns the file.
   */
  notifyAfterCommit(channel: string, payload: string): void;
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
  return database.dialect === 'postgres' ? runOnPostgres(database, work) : runOnSqlite(database, work);
}

/** What one attempt collects besides its work: beforeCommit work, COMMIT's statements, callbacks. */
class Attempt {
  readonly finishers = new Map<string, () => Promise<void>>();
  readonly commitStatements: Array<{ statement: string; committed?: (rows: unknown[]) => void }> = [];
  readonly callbacks: Array<() => void> = [];
  private locals: Map<object, unknown> | null = null;

  constructor(private readonly database: Database) {}

  tx(db: Kysely<DB>): Tx {
    const { dialect, pgNotifier } = this.database;
    return {
      db,
      dialect,
      beforeCommit: (key, finisher) => {
        if (!this.finishers.has(key)) this.finishers.set(key, finisher);
      },
      atCommit: (statement, committed) => {
        if (dialect !== 'postgres') throw new Error('atCommit is for PostgreSQL transactions only');
        this.commitStatements.push({ statement, committed });
      },
      afterCommit: (callback) => this.callbacks.push(callback),
      local: <T>(owner: object, create: () => T): T => {
        this.locals ??= new Map();
        if (this.locals.has(owner)) return this.locals.get(owner) as T;
        const value = create();
        this.locals.set(owner, value);
        return value;
      },
      notifyAfterCommit: (channel, payload) => {
        if (pgNotifier) this.callbacks.push(() => pgNotifier.notify(channel, payload));
      },
    };
  }

  async finish(): Promise<void> {
    for (const finisher of this.finishers.values()) await finisher();
  }
}

async function runOnSqlite<T>(database: Database, work: (tx: Tx) => Promise<T>): Promise<T> {
  const attempt = new Attempt(database);
  const result = await database.kysely.transaction().execute(async (trx) => {
    const value = await work(attempt.tx(trx));
    await attempt.finish();
    return value;
  });
  for (const callback of attempt.callbacks) callback();
  return result;
}

/**
 * BEGIN and COMMIT are sent here rather than by Kysely's transaction so that COMMIT can carry the
 * statements given to `atCommit` in one simple-protocol message. If any of them fails, PostgreSQL skips
 * the rest (COMMIT included) and the transaction is rolled back like any other failure.
 */
async function runOnPostgres<T>(database: Database, work: (tx: Tx) => Promise<T>): Promise<T> {
  const attempt = new Attempt(database);
  const result = await database.withPgConnection(async (db, client) => {
    await client.query('begin');
    try {
      const value = await work(attempt.tx(db));
      await attempt.finish();
      const statements = attempt.commitStatements;
      const results = await client.query([...statements.map((s) => s.statement), 'commit'].join(';\n'));
      // One result per statement; a lone COMMIT answers with a single result, not a list.
      const perStatement = Array.isArray(results) ? results : [results];
      statements.forEach((s, i) => {
        s.committed?.(perStatement[i]?.rows ?? []);
      });
      return value;
    } catch (error) {
      // The connection goes back to the pool: it must not stay inside the failed transaction. A broken
      // connection fails this too; the pool drops it.
      await client.query('rollback').catch(() => undefined);
      throw error;
    }
  });
  for (const callback of attempt.callbacks) callback();
  return result;
}
