import type { Executor, NewActivityRow } from '../schema.js';
import { directSqlite, type SqliteDirect, sqliteConnection } from '../sqlite-direct.js';

/**
 * SQLite: how many activities gather in `recent_activities` before they move into `activities`. Each
 * move writes the indexes' pages once for the batch; readers scan the recent table (no indexes), so it
 * stays small.
 */
export const RECENT_ACTIVITIES_BATCH = 128;

const COLUMNS = 'board_id, task_id, type, actor_kind, actor_id, actor_name, origin, data, created_at';

// One more than the largest id in either table (recent ids are always the larger), or than the floor.
const INSERT_RECENT = `insert into recent_activities (id, ${COLUMNS})
  values (max(coalesce((select max(id) from recent_activities), 0),
              coalesce((select max(id) from activities), 0),
              coalesce((select floor from activity_id_floor), 0)) + 1,
          ?, ?, ?, ?, ?, ?, ?, ?, ?)
  returning id`;
const MOVE_RECENT = `insert into activities (id, ${COLUMNS})
  select id, ${COLUMNS} from recent_activities where id <= ? order by id`;
const DELETE_MOVED = 'delete from recent_activities where id <= ?';
const NEWEST_RECENT = 'select max(id) as id from recent_activities';

type ActivityValues = Omit<NewActivityRow, 'id'>;

/**
 * SQLite: stores an activity in `recent_activities` and returns its id. Every RECENT_ACTIVITIES_BATCH-th
 * id moves the batch into `activities`, in the same transaction. Runs in the caller's transaction, or
 * in one of its own.
 */
export async function insertRecentActivity(db: Executor, row: ActivityValues): Promise<number> {
  const direct = directSqlite(db);
  if (!direct) return db.transaction().execute((trx) => insertRecentActivity(trx, row));
  const insert = () => {
    const inserted = direct
      .prepare(INSERT_RECENT)
      .get(
        row.board_id,
        row.task_id ?? null,
        row.type,
        row.actor_kind,
        row.actor_id ?? null,
        row.actor_name,
        row.origin,
        row.data,
        row.created_at,
      ) as { id: number };
    if (inserted.id % RECENT_ACTIVITIES_BATCH === 0) moveRecent(direct, inserted.id);
    return inserted.id;
  };
  return direct.sqlite.inTransaction ? insert() : direct.sqlite.transaction(insert)();
}

/**
 * Moves every recent activity into `activities` (retention does, before it prunes). Nothing to do on
 * PostgreSQL, which has no recent table.
 */
export async function settleRecentActivities(db: Executor): Promise<void> {
  if (!sqliteConnection(db)) return;
  const direct = directSqlite(db);
  if (!direct) return db.transaction().execute((trx) => settleRecentActivities(trx));
  const settle = () => {
    const newest = (direct.prepare(NEWEST_RECENT).get() as { id: number | null }).id;
    if (newest !== null) moveRecent(direct, newest);
  };
  direct.sqlite.inTransaction ? settle() : direct.sqlite.transaction(settle)();
}

function moveRecent(direct: SqliteDirect, upTo: number): void {
  direct.prepare(MOVE_RECENT).run(upTo);
  direct.prepare(DELETE_MOVED).run(upTo);
}
