import { sql } from 'kysely';
import type { Dialect, Executor, TurnRow } from '../schema.js';

export type TurnSource = TurnRow['source'];
export type StoredTurn = Pick<
  TurnRow,
  'id' | 'source' | 'source_id' | 'role' | 'content' | 'tool_use_only' | 'captured_at'
>;
export interface WatermarkRow {
  source: TurnSource;
  source_id: string;
  captured_at: string;
}

/** Moves `tasks.last_turn_at` forward to `capturedAt`, never backwards. */
export async function bumpTaskLastTurnAt(db: Executor, taskId: string, capturedAt: string): Promise<void> {
  await db
    .updateTable('tasks')
    .set({ last_turn_at: capturedAt })
    .where('id', '=', taskId)
    .where((eb) => eb.or([eb('last_turn_at', 'is', null), eb('last_turn_at', '<', capturedAt)]))
    .execute();
}

/**
 * Inserts turns, skipping any whose (task, source, sourceId) is already stored — also when another
 * transaction stores it concurrently. Returns the capture times of the rows actually inserted.
 */
export async function insertTurnsIgnoringDuplicates(db: Executor, rows: TurnRow[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const inserted = await db
    .insertInto('turns')
    .values(rows)
    .onConflict((oc) => oc.columns(['task_id', 'source', 'source_id']).doNothing())
    .returning('captured_at')
    .execute();
  return inserted.map((r) => r.captured_at);
}

export interface TurnPageQuery {
  taskId: string;
  source: TurnSource | null;
  /** Only turns captured strictly later. */
  after: string | null;
  /** Keyset position: only turns ordered after this (capturedAt, id) in the page's direction. */
  from: { capturedAt: string; id: string } | null;
  limit: number;
  /** Newest first (the same index, read backwards). */
  newestFirst: boolean;
}

/** One page in (captured_at, id) order, either way; served by the (task_id, captured_at, id) index. */
export async function listTurnsPage(db: Executor, page: TurnPageQuery): Promise<StoredTurn[]> {
  let query = db
    .selectFrom('turns')
    .select(['id', 'source', 'source_id', 'role', 'content', 'tool_use_only', 'captured_at'])
    .where('task_id', '=', page.taskId);
  if (page.source !== null) query = query.where('source', '=', page.source);
  if (page.after !== null) query = query.where('captured_at', '>', page.after);
  const from = page.from;
  if (from !== null) {
    // A row-value comparison, not an OR of two conditions: both databases then start the index range
    // at the cursor instead of filtering the task's turns from the first one.
    query = query.where((eb) =>
      eb(eb.refTuple('captured_at', 'id'), page.newestFirst ? '<' : '>', eb.tuple(from.capturedAt, from.id)),
    );
  }
  const direction = page.newestFirst ? 'desc' : 'asc';
  return query.orderBy('captured_at', direction).orderBy('id', direction).limit(page.limit).execute();
}

/**
 * Per source, the turn with the greatest (captured_at, source_id), in one grouped query: the latest
 * capture time per source, then the greatest source_id among the turns captured at that time. Source ids
 * compare byte-wise on both dialects (COLLATE "C" on PostgreSQL), so both pick the same turn.
 */
export async function findWatermarkRows(
  db: Executor,
  dialect: Dialect,
  taskId: string,
): Promise<WatermarkRow[]> {
  const latest = db
    .selectFrom('turns')
    .select('source')
    .select((eb) => eb.fn.max('captured_at').as('latest_at'))
    .where('task_id', '=', taskId)
    .groupBy('source');
  const greatestSourceId =
    dialect === 'postgres'
      ? sql<string>`max(${sql.ref('t.source_id')} collate "C")`
      : sql<string>`max(${sql.ref('t.source_id')})`;
  const rows = await db
    .selectFrom('turns as t')
    .innerJoin(latest.as('l'), (join) =>
      join.onRef('l.source', '=', 't.source').onRef('l.latest_at', '=', 't.captured_at'),
    )
    .select(['t.source', 'l.latest_at as captured_at', greatestSourceId.as('source_id')])
    .where('t.task_id', '=', taskId)
    .groupBy(['t.source', 'l.latest_at'])
    .orderBy('t.source')
    .execute();
  return rows;
}
