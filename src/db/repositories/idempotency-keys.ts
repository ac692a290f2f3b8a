import type { Executor, IdempotencyKeyRow } from '../schema.js';

/** Claims `key` for a first request; false when a row for it exists already (in progress or done). */
export async function claimIdempotencyKey(
  db: Executor,
  row: { apiKeyId: string; key: string; fingerprint: string; createdAt: string },
): Promise<boolean> {
  const result = await db
    .insertInto('idempotency_keys')
    .values({
      api_key_id: row.apiKeyId,
      idempotency_key: row.key,
      fingerprint: row.fingerprint,
      status_code: null,
      response_body: null,
      created_at: row.createdAt,
    })
    .onConflict((oc) => oc.columns(['api_key_id', 'idempotency_key']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function findIdempotencyKey(
  db: Executor,
  apiKeyId: string,
  key: string,
): Promise<IdempotencyKeyRow | undefined> {
  return db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('api_key_id', '=', apiKeyId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

export async function completeIdempotencyKey(
  db: Executor,
  apiKeyId: string,
  key: string,
  response: { statusCode: number; body: string },
): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ status_code: response.statusCode, response_body: response.body })
    .where('api_key_id', '=', apiKeyId)
    .where('idempotency_key', '=', key)
    .execute();
}

/** Forgets one key (its request failed, or it expired), so the key may be used again. */
export async function releaseIdempotencyKey(db: Executor, apiKeyId: string, key: string): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('api_key_id', '=', apiKeyId)
    .where('idempotency_key', '=', key)
    .execute();
}

/** Deletes the keys created before `before`; returns how many. */
export async function deleteIdempotencyKeysBefore(db: Executor, before: string): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('created_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
