import { CompiledQuery, sql } from 'kysely';
import type { DeliveryRow, Dialect, Executor } from '../schema.js';
import { directSqlite } from '../sqlite-direct.js';

/*
 * The results of the dispatcher's attempts: each updates its delivery (status, attempts, next attempt,
 * the latest response) and ends the lease, and adds a row to the delivery log, only while the attempt's
 * claimer still holds the lease. Claims are delivery-leases.ts.
 */

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

export interface AttemptResultEntry {
  id: string;
  leaseOwner: string;
  record: AttemptRecord;
}

/**
 * Stores attempts' results and ends their leases, each only if its claimer still holds the lease (a
 * claimer whose lease ran out and was taken over must not overwrite the newer attempt), in the caller's
 * transaction. Returns the ids stored.
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
