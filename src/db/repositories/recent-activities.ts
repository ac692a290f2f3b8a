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
// The same with the id this connection already knows to be next (see nextIds).
const INSERT_RECENT_WITH_ID = `insert into recent_activities (id, ${COLUMNS})
  values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const MOVE_RECENT = `insert into activities (id, ${COLUMNS})
  select id, ${COLUMNS} from recent_activities order by id`;
// Without a WHERE clause SQLite empties the table page by page (its truncate optimisation) instead of
// deleting row by row: 14 µs instead of 37 for a batch.
const DELETE_MOVED = 'delete from recent_activities';

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
    const values = [
      row.board_id,
      row.task_id ?? null,
      row.type,
      row.actor_kind,
      row.actor_id ?? null,
      row.actor_name,
      row.origin,
      row.data,
      row.created_at,
    ];
    const next = nextIds(direct);
    let id = next.known();
    if (id === null) id = (direct.prepare(INSERT_RECENT).get(...values) as { id: number }).id;
    else direct.prepare(INSERT_RECENT_WITH_ID).run(id, ...values);
    next.inserted(id);
    if (id % RECENT_ACTIVITIES_BATCH === 0) moveRecent(direct);
    return id;
  };
  return direct.sqlite.inTransaction ? insert() : direct.sqlite.transaction(insert)();
}

/**
 * The id this connection's next activity takes, kept after each insert: looking it up costs three
 * b-tree reads, about a third of an activity's insert. It stays right while no other connection has
 * committed (`PRAGMA data_version` unchanged; an activity is inserted inside a write transaction, so none
 * can commit before it does) and this connection has not rolled back since.
 */
class NextActivityId {
  private next: number | null = null;
  private version = -1;
  private readonly dataVersion;

  constructor(direct: SqliteDirect) {
    this.dataVersion = direct.sqlite.prepare('pragma data_version').pluck();
    direct.rollbackListeners.add(() => {
      this.next = null;
    });
  }

  known(): number | null {
    const version = this.dataVersion.get() as number;
    if (version !== this.version) {
      this.version = version;
      this.next = null;
    }
    return this.next;
  }

  inserted(id: number): void {
    this.next = id + 1;
  }
}

const nextIdsByConnection = new WeakMap<SqliteDirect, NextActivityId>();
function nextIds(direct: SqliteDirect): NextActivityId {
  let next = nextIdsByConnection.get(direct);
  if (!next) {
    next = new NextActivityId(direct);
    nextIdsByConnection.set(direct, next);
  }
  return next;
}

/**
 * Moves every recent activity into `activities` (retention does, before it prunes). Nothing to do on
 * PostgreSQL, which has no recent table.
 */
export async function settleRecentActivities(db: Executor): Promise<void> {
  if (!sqliteConnection(db)) return;
  const direct = directSqlite(db);
  if (!direct) return db.transaction().execute((trx) => settleRecentActivities(trx));
  direct.sqlite.inTransaction ? moveRecent(direct) : direct.sqlite.transaction(() => moveRecent(direct))();
}

/** Moves every recent activity into `activities` (in the caller's write transaction). */
function moveRecent(direct: SqliteDirect): void {
  direct.prepare(MOVE_RECENT).run();
  direct.prepare(DELETE_MOVED).run();
}
