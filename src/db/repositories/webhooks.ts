import type { Executor, WebhookRow } from '../schema.js';

export async function deleteWebhooksOfKey(db: Executor, keyId: string): Promise<void> {
  await db.deleteFrom('webhooks').where('api_key_id', '=', keyId).execute();
}

/**
 * Active webhooks of unrevoked keys that hold a grant on the board (all-boards keys count).
 * The event-type filter is applied by the caller, on the decoded `events` list.
 */
export async function listWebhooksForBoard(
  db: Executor,
  boardId: string,
): Promise<Array<Pick<WebhookRow, 'id' | 'events'>>> {
  return db
    .selectFrom('webhooks as w')
    .innerJoin('api_keys as k', 'k.id', 'w.api_key_id')
    .select(['w.id', 'w.events'])
    .where('w.active', '=', 1)
    .where('k.revoked_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('k.all_boards', '=', 1),
        eb.exists(
          eb
            .selectFrom('api_key_grants as g')
            .select('g.board_id')
            .whereRef('g.api_key_id', '=', 'k.id')
            .where('g.board_id', '=', boardId),
        ),
      ]),
    )
    .execute();
}
