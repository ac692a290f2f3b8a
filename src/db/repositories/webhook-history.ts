import { sql } from 'kysely';
import type { Executor } from '../schema.js';

/** Deletes up to `limit` delivered or failed deliveries created before `before`; returns how many. */
export async function deleteFinishedDeliveriesBefore(
  db: Executor,
  before: string,
  limit: number,
): Promise<number> {
  const result = await db
    .deleteFrom('webhook_deliveries')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('webhook_deliveries')
        .select('id')
        // Written out: a bound parameter would not let the planner use the partial index
        // `deliveries_finished_idx` (finished deliveries only, migration 012).
        .where(sql<boolean>`status <> 'pending'`)
        .where('created_at', '<', before)
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes up to `limit` events created before `before` that no delivery (pending or kept) refers to. */
export async function deleteUnreferencedEventsBefore(
  db: Executor,
  before: string,
  limit: number,
): Promise<number> {
  const result = await db
    .deleteFrom('webhook_events')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('webhook_events as e')
        .select('e.id')
        .where('e.created_at', '<', before)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(selectFrom('webhook_deliveries as d').select('d.id').whereRef('d.event_id', '=', 'e.id')),
          ),
        )
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
