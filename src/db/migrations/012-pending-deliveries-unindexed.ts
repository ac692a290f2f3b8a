import { type Kysely, sql } from 'kysely';

/*
 * Queueing an event writes one pending delivery per webhook. In `deliveries_webhook_idx`
 * (webhook_id, created_at) those rows land on as many leaf pages as there are webhooks, each a page
 * written at commit (SQLite: a WAL frame): with 20 webhooks most of a create's fan-out cost. Both
 * history indexes (per webhook, and retention's by age) now hold finished deliveries only; a delivery
 * enters them when the dispatcher records its result, in batches. Pending deliveries stay reachable
 * through `deliveries_due_idx` (status, next_attempt_at), unchanged: the claim reads its pending range.
 * Queries that use the partial indexes say `status <> 'pending'` literally (a bound parameter does not
 * let the planner use them). See docs/decisions.md, "Pending deliveries are not in the per-webhook index".
 */
export const pendingDeliveriesUnindexedMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`drop index deliveries_webhook_idx`.execute(db);
    // With id, the index is in the lists' exact order (created_at, then id): a list reads its first rows
    // and stops, with nothing to sort, so PostgreSQL does not prefer another index's walk over all webhooks.
    await sql`create index deliveries_webhook_idx on webhook_deliveries (webhook_id, created_at, id)
      where status <> 'pending'`.execute(db);
    await sql`drop index deliveries_finished_idx`.execute(db);
    // Retention's index: finished deliveries by age (the status column would only split the range).
    await sql`create index deliveries_finished_idx on webhook_deliveries (created_at)
      where status <> 'pending'`.execute(db);
  },
};
