import { createRequire } from 'node:module';
import type pg from 'pg';
import { precompiled } from '../precompiled.js';
import type { ActivityRow, Executor, NewActivityRow } from '../schema.js';
import { sqliteConnection } from '../sqlite-direct.js';
import type { Tx } from '../transaction.js';
import { insertRecentActivity, settleRecentActivities } from './recent-activities.js';

const insertActivityQuery = precompiled(
  9,
  (
    db,
    boardId: string,
    taskId: string,
    type: string,
    actorKind: string,
    actorId: string,
    actorName: string,
    origin: string,
    data: string,
    createdAt: string,
  ) =>
    db
      .insertInto('activities')
      .values({
        board_id: boardId,
        task_id: taskId,
        type,
        actor_kind: actorKind as NewActivityRow['actor_kind'],
        actor_id: actorId,
        actor_name: actorName,
        origin: origin as NewActivityRow['origin'],
        data,
        created_at: createdAt,
      })
      .returning('id'),
);

/**
 * Inserts one activity and returns its id (increasing per database). On SQLite it goes to the recent
 * activities (recent-activities.ts). Runs on every change, so it is precompiled; the nullable ids go
 * through as null parameters (the casts only satisfy the string slots).
 */
export async function insertActivity(db: Executor, row: Omit<NewActivityRow, 'id'>): Promise<number> {
  if (sqliteConnection(db)) return insertRecentActivity(db, row);
  const rows = await insertActivityQuery(
    db,
    row.board_id,
    row.task_id as string,
    row.type,
    row.actor_kind,
    row.actor_id as string,
    row.actor_name,
    row.origin,
    row.data,
    row.created_at,
  );
  return Number((rows[0] as { id: number | string }).id);
}

const ACTIVITY_COLUMNS = [
  'board_id',
  'task_id',
  'type',
  'actor_kind',
  'actor_id',
  'actor_name',
  'origin',
  'data',
  'created_at',
] as const;

// pg is loaded on the first PostgreSQL commit statement (the only user), so SQLite processes never load it.
let escapeLiteral: typeof pg.escapeLiteral | null = null;
function literal(value: string | null | undefined): string {
  if (value == null) return 'null';
  escapeLiteral ??= (createRequire(import.meta.url)('pg') as typeof pg).escapeLiteral;
  return escapeLiteral(value);
}

/** One row a commit statement inserted. */
export interface InsertedActivity {
  id: string | number;
  board_id: string;
}

/**
 * PostgreSQL: one plain insert of `rows` answering each row's id and board (InsertedActivity), for
 * Tx.atCommit: the activities of a transaction cost no round trip of their own. Values are inlined as
 * escaped literals, as atCommit requires.
 */
export function insertActivitiesAtCommit(rows: ReadonlyArray<Omit<NewActivityRow, 'id'>>): string {
  const values = rows.map((row) => `(${ACTIVITY_COLUMNS.map((column) => literal(row[column])).join(', ')})`);
  return `insert into activities (${ACTIVITY_COLUMNS.join(', ')}) values ${values.join(', ')} returning id, board_id`;
}

/** The activities one transaction wrote, once it has committed (ids increasing per database). */
export type CommittedActivities = (rows: readonly InsertedActivity[]) => void;

/**
 * Writes one activity row in `tx` the cheapest way its database allows, and calls `committed` once,
 * after the transaction commits, with every row it wrote this way. SQLite inserts the row at once (ids
 * become visible in order); PostgreSQL keeps the transaction's rows for the one statement sent with
 * COMMIT (Tx.atCommit), so recording costs no round trip and ids are drawn at commit. A rolled-back
 * transaction calls nothing. `committed` also identifies the collection: one per caller.
 */
export async function writeActivity(
  tx: Tx,
  row: Omit<NewActivityRow, 'id'>,
  committed: CommittedActivities,
): Promise<void> {
  if (tx.dialect === 'postgres') {
    const rows = tx.local(committed, () => {
      const waiting: Array<Omit<NewActivityRow, 'id'>> = [];
      // Before-commit work, so that every activity of the transaction is in the statement.
      tx.beforeCommit('activities', async () =>
        tx.atCommit(insertActivitiesAtCommit(waiting), (inserted) =>
          committed(inserted as InsertedActivity[]),
        ),
      );
      return waiting;
    });
    rows.push(row);
    return;
  }
  const id = await insertActivity(tx.db, row);
  const written = tx.local(committed, () => {
    const list: InsertedActivity[] = [];
    tx.afterCommit(() => committed(list));
    return list;
  });
  written.push({ id, board_id: row.board_id });
}

export interface ActivityPage {
  /** Only activities with a smaller id (the previous page's last id); none for the newest. */
  before?: number;
  /** Only activities with a greater id (a reader resuming from the last id it saw). */
  after?: number;
  limit: number;
}

/** A board's activities, newest first. */
export async function listBoardActivities(
  db: Executor,
  boardId: string,
  page: ActivityPage,
): Promise<ActivityRow[]> {
  let query = db.selectFrom('all_activities').selectAll().where('board_id', '=', boardId);
  if (page.before !== undefined) query = query.where('id', '<', page.before);
  if (page.after !== undefined) query = query.where('id', '>', page.after);
  return query.orderBy('id', 'desc').limit(page.limit).execute();
}

/** A task's activities, newest first (board-scoped, so a task id from another board finds nothing). */
export async function listTaskActivities(
  db: Executor,
  boardId: string,
  taskId: string,
  page: ActivityPage,
): Promise<ActivityRow[]> {
  let query = db
    .selectFrom('all_activities')
    .selectAll()
    .where('task_id', '=', taskId)
    .where('board_id', '=', boardId);
  if (page.before !== undefined) query = query.where('id', '<', page.before);
  if (page.after !== undefined) query = query.where('id', '>', page.after);
  return query.orderBy('id', 'desc').limit(page.limit).execute();
}

/**
 * Deletes up to `limit` of the oldest activities that were created before `before`; returns how many.
 * Ids increase with creation time, so the oldest ids (the primary key, no index of its own) are the
 * candidates; a batch with fewer deletions than `limit` has reached activities still kept. The newest
 * activity is always kept: SQLite hands out max(id) + 1, so an emptied table would reuse ids that live
 * streams have already seen. On SQLite the recent activities are moved into `activities` first.
 */
export async function deleteActivitiesBefore(db: Executor, before: string, limit: number): Promise<number> {
  await settleRecentActivities(db);
  const result = await db
    .deleteFrom('activities')
    .where('id', 'in', (eb) => eb.selectFrom('activities').select('id').orderBy('id').limit(limit))
    .where('id', '<', (eb) => eb.selectFrom('activities').select((e) => e.fn.max('id').as('newest')))
    .where('created_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
