import { newId } from '../../lib/ids.js';
import type { Executor } from '../schema.js';

export async function recordFailure(db: Executor, subjects: readonly string[], at: string): Promise<void> {
  if (subjects.length === 0) return;
  await db
    .insertInto('sign_in_failures')
    .values(subjects.map((subject) => ({ id: newId('sif'), subject, at })))
    .execute();
}

/** How many failures the subject has since `since`, and the oldest of them. */
export async function failuresSince(
  db: Executor,
  subject: string,
  since: string,
): Promise<{ count: number; oldest: string | null }> {
  const row = await db
    .selectFrom('sign_in_failures')
    .select((eb) => [eb.fn.countAll<string | number>().as('n'), eb.fn.min('at').as('oldest')])
    .where('subject', '=', subject)
    .where('at', '>', since)
    .executeTakeFirstOrThrow();
  return { count: Number(row.n), oldest: (row.oldest as string | null) ?? null };
}

export async function clearFailures(db: Executor, subject: string): Promise<void> {
  await db.deleteFrom('sign_in_failures').where('subject', '=', subject).execute();
}

export async function deleteFailuresBefore(db: Executor, before: string): Promise<void> {
  await db.deleteFrom('sign_in_failures').where('at', '<=', before).execute();
}
