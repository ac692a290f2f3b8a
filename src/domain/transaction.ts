import type { Database } from '../db/database.js';
import { inTransaction as runTransaction, TransactionConflictError, type Tx } from '../db/transaction.js';
import { DomainError } from './errors.js';

export type { Tx } from '../db/transaction.js';

/**
 * Runs the work in a transaction (retried on deadlocks and serialization failures, see db/); one that
 * keeps losing to concurrent requests becomes 409 conflict, which the caller may simply retry.
 */
export async function inTransaction<T>(database: Database, work: (tx: Tx) => Promise<T>): Promise<T> {
  try {
    return await runTransaction(database, work);
  } catch (error) {
    if (error instanceof TransactionConflictError) {
      throw new DomainError(
        'conflict',
        'The change collided with other requests at the same time. Retry the request.',
      );
    }
    throw error;
  }
}
