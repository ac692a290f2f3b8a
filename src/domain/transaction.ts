import type { Transaction } from 'kysely';
import type { Database } from '../db/database.js';
import type { DB, Dialect } from '../db/schema.js';

/** A unit of work: the open transaction plus callbacks that must run only once it has committed. */
export interface Tx {
  readonly db: Transaction<DB>;
  readonly dialect: Dialect;
  afterCommit(callback: () => void): void;
}

export async function inTransaction<T>(database: Database, work: (tx: Tx) => Promise<T>): Promise<T> {
  const callbacks: Array<() => void> = [];
  const result = await database.kysely
    .transaction()
    .execute((trx) =>
      work({ db: trx, dialect: database.dialect, afterCommit: (callback) => callbacks.push(callback) }),
    );
  for (const callback of callbacks) callback();
  return result;
}
