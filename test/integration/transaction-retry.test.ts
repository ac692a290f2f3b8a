import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import {
  inTransaction,
  MAX_TRANSACTION_ATTEMPTS,
  TransactionConflictError,
} from '../../src/db/transaction.js';
import { inTransaction as domainTransaction } from '../../src/domain/transaction.js';
import { describeEachDialect, useTestDatabase } from '../support/dialects.js';

const deadlock = () => Object.assign(new Error('deadlock detected'), { code: '40P01' });

describeEachDialect('transactions retry deadlocks', (dialect) => {
  const db = useTestDatabase(dialect);

  const boardCount = async () =>
    Number(
      (
        await db.database.kysely
          .selectFrom('boards')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const insertBoard = (trx: Parameters<Parameters<typeof inTransaction>[1]>[0], id: string) =>
    trx.db.insertInto('boards').values({ id, name: id, created_at: 'now', updated_at: 'now' }).execute();

  it('runs the whole work again after a deadlock, and after-commit callbacks of the committed attempt only', async () => {
    const before = await boardCount();
    let attempts = 0;
    const committed: number[] = [];
    const result = await inTransaction(db.database, async (tx) => {
      attempts++;
      const attempt = attempts;
      await insertBoard(tx, `brd_retry_${attempt}`);
      tx.afterCommit(() => committed.push(attempt));
      if (attempt < 3) throw deadlock();
      return 'done';
    });
    expect(result).toBe('done');
    expect(attempts).toBe(3);
    expect(committed).toEqual([3]);
    // The failed attempts' writes were rolled back.
    expect(await boardCount()).toBe(before + 1);
  });

  it('gives up after the last attempt: 409 conflict for the domain; other errors are not retried', async () => {
    let attempts = 0;
    const always = () =>
      inTransaction(db.database, async () => {
        attempts++;
        throw deadlock();
      });
    await expect(always()).rejects.toBeInstanceOf(TransactionConflictError);
    expect(attempts).toBe(MAX_TRANSACTION_ATTEMPTS);
    await expect(
      domainTransaction(db.database, async () => {
        throw deadlock();
      }),
    ).rejects.toMatchObject({ code: 'conflict' });
    attempts = 0;
    await expect(
      inTransaction(db.database, async () => {
        attempts++;
        throw new Error('not a conflict');
      }),
    ).rejects.toThrow('not a conflict');
    expect(attempts).toBe(1);
  });

  describe.skipIf(dialect !== 'postgres')('a real deadlock', () => {
    it('two transactions locking two rows in opposite orders both commit', async () => {
      await db.database.kysely
        .insertInto('boards')
        .values(
          ['brd_dl_a', 'brd_dl_b'].map((id) => ({ id, name: 'x', created_at: 'now', updated_at: 'now' })),
        )
        .execute();
      // Each takes its first row, waits until the other has taken its first too, then wants the other's.
      let ready = 0;
      const bothHoldOne = () =>
        new Promise<void>((resolve) => {
          ready++;
          const check = () => (ready >= 2 ? resolve() : setTimeout(check, 5));
          check();
        });
      let runs = 0;
      const lockInOrder = (first: string, second: string, name: string) =>
        inTransaction(db.database, async (tx) => {
          runs++;
          await tx.db.updateTable('boards').set({ name }).where('id', '=', first).execute();
          if (runs <= 2) await bothHoldOne();
          await tx.db.updateTable('boards').set({ name }).where('id', '=', second).execute();
        });
      await Promise.all([
        lockInOrder('brd_dl_a', 'brd_dl_b', 'one'),
        lockInOrder('brd_dl_b', 'brd_dl_a', 'two'),
      ]);
      // PostgreSQL broke the deadlock by failing one; it was run again and committed.
      expect(runs).toBe(3);
      const names = await sql<{
        name: string;
      }>`select name from boards where id in ('brd_dl_a', 'brd_dl_b')`.execute(db.database.kysely);
      expect(new Set(names.rows.map((r) => r.name)).size).toBe(1);
    });
  });
});
