import { CompiledQuery, sql } from 'kysely';
import type { DeliveryRow, Dialect, Executor } from '../schema.js';
import { directSqlite } from '../sqlite-direct.js';

/*
 * The dispatcher's side of deliveries: leasing due ones, loading what to send, recording each attempt's
 * result (and its row in the delivery log), giving leases back and renewing them. Queueing them is
 * deliveries.ts.
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

export interface AttemptRecord {
  status: DeliveryRow['status'];
  attempts: number;
  next_attempt_at: number;
  response_status: number | null;
  response_body: string | null;
  duration_ms: number;
  error: string | null;
  last_attempt_at: string;
}

/**
 * Stores an attempt's result and ends the lease, only if this claimer still holds it: a claimer whose
 * lease ran out (and was taken over) must not overwrite the newer attempt. Returns whether it was stored.
 */
/** The delivery log's row for one attempt (the delivery row itself keeps only the latest). */
function attemptLogRow(deliveryId: string, record: AttemptRecord) {
  return {
    delivery_id: deliveryId,
    number: record.attempts,
    at: record.last_attempt_at,
    response_status: record.response_status,
    response_body: record.response_body,
    duration_ms: record.duration_ms,
    error: record.error,
  };
}

export async function recordAttempt(
  db: Executor,
  id: string,
  leaseOwner: string,
  record: AttemptRecord,
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ ...record, lease_until: null, lease_owner: null })
    .where('id', '=', id)
    .where('lease_owner', '=', leaseOwner)
    .executeTakeFirst();
  const stored = Number(result.numUpdatedRows) > 0;
  if (stored) {
    // One row per attempt for the web UI's delivery log; the delivery row keeps only the latest.
    await db
      .insertInto('webhook_delivery_attempts')
      .values(attemptLogRow(id, record))
      .onConflict((oc) => oc.columns(['delivery_id', 'number']).doNothing())
      .execute();
  }
  return stored;
}

export interface AttemptResultEntry {
  id: string;
  leaseOwner: string;
  record: AttemptRecord;
}

/**
 * Stores many attempts' results, each only if its claimer still holds the lease (as recordAttempt), in
 * the caller's transaction. Returns the ids stored.
 */
export async function recordAttempts(
  db: Executor,
  dialect: Dialect,
  entries: readonly AttemptResultEntry[],
): Promise<string[]> {
  if (entries.length === 0) return [];
  // One result per delivery (the latest).
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  return dialect === 'postgres' ? recordAttemptsPostgres(db, byId) : recordAttemptsSqlite(db, byId);
}

/**
 * PostgreSQL: two statements for the whole batch (one update from a JSON list, one insert of the
 * attempt rows), one round trip each whatever the batch's size. The ids are also given as an array so
 * the rows are found by the primary key (a join with the function's rows alone may be planned as a scan
 * of the table).
 */
async function recordAttemptsPostgres(
  db: Executor,
  byId: ReadonlyMap<string, AttemptResultEntry>,
): Promise<string[]> {
  const list = JSON.stringify(
    [...byId.values()].map(({ id, leaseOwner, record }) => ({ id, lease_owner: leaseOwner, ...record })),
  );
  const updated = await sql<{ id: string }>`
    update webhook_deliveries as d set
      status = r.status, attempts = r.attempts, next_attempt_at = r.next_attempt_at,
      response_status = r.response_status, response_body = r.response_body,
      duration_ms = r.duration_ms, error = r.error, last_attempt_at = r.last_attempt_at,
      lease_until = null, lease_owner = null
    from jsonb_to_recordset(${list}::jsonb) as r(id text, lease_owner text, status text,
      attempts integer, next_attempt_at bigint, response_status integer, response_body text,
      duration_ms integer, error text, last_attempt_at text)
    where d.id = r.id and d.lease_owner = r.lease_owner and d.id = any(${[...byId.keys()]}::text[])
    returning d.id`.execute(db);
  const stored = updated.rows.map((row) => row.id);
  if (stored.length === 0) return stored;
  // One row per attempt for the web UI's delivery log; the delivery row keeps only the latest. The rows
  // travel as one JSON parameter of a fixed statement: a Kysely multi-row insert was built and compiled
  // anew for every batch (up to 500 rows of 7 parameters).
  const logRows = JSON.stringify(
    stored.map((id) => attemptLogRow(id, (byId.get(id) as AttemptResultEntry).record)),
  );
  await sql`
    insert into webhook_delivery_attempts
      (delivery_id, number, at, response_status, response_body, duration_ms, error)
    select r.delivery_id, r.number, r.at, r.response_status, r.response_body, r.duration_ms, r.error
    from jsonb_to_recordset(${logRows}::jsonb) as r(delivery_id text, number integer, at text,
      response_status integer, response_body text, duration_ms integer, error text)
    on conflict (delivery_id, number) do nothing`.execute(db);
  return stored;
}

const RECORD_ATTEMPT_SQLITE = `update webhook_deliveries set
  status = ?, attempts = ?, next_attempt_at = ?, response_status = ?, response_body = ?,
  duration_ms = ?, error = ?, last_attempt_at = ?, lease_until = null, lease_owner = null
  where id = ? and lease_owner = ?`;
const LOG_ATTEMPT_SQLITE = `insert into webhook_delivery_attempts
  (delivery_id, number, at, response_status, response_body, duration_ms, error)
  values (?, ?, ?, ?, ?, ?, ?) on conflict (delivery_id, number) do nothing`;

/**
 * SQLite: two prepared statements per result, run on the transaction's connection. On SQLite there is
 * no round trip to save, and an update joined to json_each cost twice as much per row as the prepared
 * update by primary key (measured in batches of 128: 23–28 against 11 µs a result with its log row;
 * 36 against 18 µs through this function with the commit), all of it spent holding the write lock the
 * API's requests wait for.
 */
async function recordAttemptsSqlite(
  db: Executor,
  byId: ReadonlyMap<string, AttemptResultEntry>,
): Promise<string[]> {
  const direct = db.isTransaction ? directSqlite(db) : undefined;
  const stored: string[] = [];
  for (const { id, leaseOwner, record } of byId.values()) {
    const update = [
      record.status,
      record.attempts,
      record.next_attempt_at,
      record.response_status,
      record.response_body,
      record.duration_ms,
      record.error,
      record.last_attempt_at,
      id,
      leaseOwner,
    ];
    const log = [
      id,
      record.attempts,
      record.last_attempt_at,
      record.response_status,
      record.response_body,
      record.duration_ms,
      record.error,
    ];
    if (direct) {
      if (direct.prepare(RECORD_ATTEMPT_SQLITE).run(update).changes === 0) continue;
      direct.prepare(LOG_ATTEMPT_SQLITE).run(log);
    } else {
      // A connection Kysely alone knows (no direct access registered): the same statements through it.
      const updated = await db.executeQuery(CompiledQuery.raw(RECORD_ATTEMPT_SQLITE, update));
      if (Number(updated.numAffectedRows ?? 0) === 0) continue;
      await db.executeQuery(CompiledQuery.raw(LOG_ATTEMPT_SQLITE, log));
    }
    stored.push(id);
  }
  return stored;
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
