import type { DeliveryRow, Dialect, Executor } from '../schema.js';

/*
 * The dispatcher's claims: leasing due deliveries, loading what to send, giving leases back and renewing
 * them. Recording attempts' results is delivery-attempt-results.ts; queueing deliveries is deliveries.ts.
 */

export interface ClaimRequest {
  nowMs: number;
  limit: number;
  leaseUntil: number;
  leaseOwner: string;
  /** Webhooks not to claim now (their hosts are at their concurrency limit). */
  excludeWebhookIds: readonly string[];
  /**
   * With exclusions: how many of the first due deliveries to look through for ones not excluded. Bounds
   * the claim's cost when the excluded webhooks' backlog is long; unbounded when absent.
   */
  scanLimit?: number;
}

/**
 * Leases up to `limit` due deliveries of active webhooks in one statement. On PostgreSQL the inner
 * select skips rows another instance is claiming at the same moment (FOR UPDATE SKIP LOCKED); on SQLite
 * the single writer makes the statement atomic by itself. A delivery whose lease has run out (its
 * claimer crashed or hung) is due again.
 */
export async function claimDueDeliveries(
  db: Executor,
  dialect: Dialect,
  request: ClaimRequest,
): Promise<Array<Pick<DeliveryRow, 'id'>>> {
  const dueOfActive = (limit: number) => {
    let query = db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
      .select(['d.id', 'd.webhook_id'])
      .where('d.status', '=', 'pending')
      .where('d.next_attempt_at', '<=', request.nowMs)
      .where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<', request.nowMs)]))
      .where('w.active', '=', 1)
      .orderBy('d.next_attempt_at')
      .limit(limit);
    if (dialect === 'postgres') query = query.forUpdate(['d']).skipLocked();
    return query;
  };
  const excluded = request.excludeWebhookIds;
  const due =
    excluded.length === 0
      ? dueOfActive(request.limit).clearSelect().select('d.id')
      : request.scanLimit === undefined
        ? dueOfActive(request.limit).clearSelect().select('d.id').where('d.webhook_id', 'not in', excluded)
        : // The index walks due deliveries in time order; past the excluded hosts' backlog it would read
          // all of it. Looking through a bounded window keeps the claim's cost flat.
          db
            .selectFrom(dueOfActive(request.scanLimit).as('ahead'))
            .select('ahead.id')
            .where('ahead.webhook_id', 'not in', excluded)
            .limit(request.limit);
  return db
    .updateTable('webhook_deliveries')
    .set({ lease_until: request.leaseUntil, lease_owner: request.leaseOwner })
    .where('id', 'in', due)
    .returning('id')
    .execute();
}

export interface DeliveryJob {
  id: string;
  attempts: number;
  webhook_id: string;
  url: string;
  secret_sealed: string;
  event_type: string;
  payload: string;
}

/** Everything an attempt needs, read after the claim so URL and secret changes apply to the next attempt. */
export async function loadDeliveryJobs(db: Executor, ids: readonly string[]): Promise<DeliveryJob[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .select(['d.id', 'd.attempts', 'd.webhook_id', 'w.url', 'w.secret_sealed', 'e.type as event_type'])
    .select('e.payload')
    .where('d.id', 'in', ids)
    .execute();
}

/** Gives claimed deliveries back without an attempt, so they are due again at once. */
export async function releaseLeases(db: Executor, ids: readonly string[], leaseOwner: string): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('webhook_deliveries')
    .set({ lease_until: null, lease_owner: null })
    .where('id', 'in', ids)
    .where('lease_owner', '=', leaseOwner)
    .execute();
}

/** Gives back deliveries claimed under several leases (one statement per lease owner). */
export async function releaseHeldLeases(
  db: Executor,
  jobs: ReadonlyArray<{ id: string; leaseOwner: string }>,
): Promise<void> {
  const byOwner = new Map<string, string[]>();
  for (const job of jobs) byOwner.set(job.leaseOwner, [...(byOwner.get(job.leaseOwner) ?? []), job.id]);
  for (const [leaseOwner, ids] of byOwner) await releaseLeases(db, ids, leaseOwner);
}

/**
 * Extends the lease of a delivery this claimer still holds (a delivery that waited for a slot long
 * enough that its lease might run out during the attempt). Returns false when another claimer has
 * taken it over meanwhile: the caller must then not attempt it.
 */
export async function renewLease(
  db: Executor,
  id: string,
  leaseOwner: string,
  leaseUntil: number,
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ lease_until: leaseUntil })
    .where('id', '=', id)
    .where('lease_owner', '=', leaseOwner)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
