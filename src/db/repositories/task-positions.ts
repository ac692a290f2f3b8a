import type BetterSqlite3 from 'better-sqlite3';
import type { TaskRow } from '../schema.js';
import type { SqliteDirect } from '../sqlite-direct.js';

/*
 * Dense positions of tasks on SQLite in O(1). A position is counted through tasks_lane_rank_idx (one index
 * entry per task ordered before it), so a detail of the 2 500th task of a lane read 2 500 entries. On
 * SQLite this process is the only writer of its connection, so it can keep each lane's positions once
 * read and learn of every change to them from TEMP triggers (they live on this connection only, like the
 * key-change triggers): a write that may shift a lane's positions drops that lane. Commits by other
 * connections (a CLI or MCP process on the same file) change `PRAGMA data_version`, and a schema change
 * `schema_version` (a rebuilt table loses its triggers): either drops everything.
 *
 * Only committed state is cached: lanes are read, and tasks added, outside any transaction. Appends do
 * not shift other tasks, so they drop nothing; a task appended after its lane was read is counted once
 * when first asked for (then kept). A rolled-back write may have dropped a lane for nothing, never left
 * a wrong entry. PostgreSQL keeps counting (several instances write, and appends take no lock there).
 */

/** Positions kept at most (whole lanes; the least recently read lane goes first). */
const MAX_CACHED_TASKS = 100_000;
/** Appends counted one by one before the lane is read again (each count reads that many index entries). */
const REREAD_AFTER_APPENDS = 64;

interface LanePositions {
  positions: Map<string, number>;
  /** The lane's last active task when it was read: every later one is an append since. */
  readLast: { rank: number; id: string } | null;
  /** The lane's positions as read (tasks up to readLast). */
  readCount: number;
  /** Every cached task's rank is at most this: an insert above it shifts none of them. */
  lastRank: number;
}

export class SqliteTaskPositions {
  private readonly lanes = new Map<string, LanePositions>();
  private cachedTasks = 0;
  private stamp = '';
  private queries: { laneOrder: BetterSqlite3.Statement; appendedBefore: BetterSqlite3.Statement } | null =
    null;
  private readonly dataVersion: BetterSqlite3.Statement;
  private readonly schemaVersion: BetterSqlite3.Statement;

  constructor(private readonly sqlite: BetterSqlite3.Database) {
    this.dataVersion = sqlite.prepare('pragma data_version').pluck();
    this.schemaVersion = sqlite.prepare('pragma schema_version').pluck();
    sqlite.function('laneboard_task_inserted', { varargs: false }, (lane, archived, rank) => {
      this.inserted(String(lane), Number(archived), Number(rank));
      return null;
    });
    sqlite.function('laneboard_lane_order_changed', { varargs: false }, (lane) => {
      this.drop(String(lane));
      return null;
    });
  }

  /**
   * The task's position (null when archived) from its lane's cached positions, reading the lane's order
   * once if needed. Undefined when it cannot be answered here (a transaction is open): count instead.
   */
  positionOf(task: Pick<TaskRow, 'id' | 'lane_id' | 'archived' | 'rank'>): number | null | undefined {
    if (task.archived !== 0) return null;
    const queries = this.sqlite.inTransaction ? null : this.current();
    if (!queries) return undefined;
    const lane = this.lanes.get(task.lane_id) ?? this.readLane(queries, task.lane_id);
    const known = lane.positions.get(task.id);
    if (known !== undefined) return known;
    // Appended after the lane was read: after the tasks read then, counted among the appends only (a
    // range of the rank index from the last task read), then kept. Many appends since: read it again.
    const appendedBefore = queries.appendedBefore.get(
      task.lane_id,
      lane.readLast?.rank ?? Number.NEGATIVE_INFINITY,
      lane.readLast?.id ?? '',
      task.rank,
      task.id,
    ) as number;
    if (appendedBefore > REREAD_AFTER_APPENDS) {
      this.drop(task.lane_id);
      return this.readLane(queries, task.lane_id).positions.get(task.id);
    }
    const counted = lane.readCount + appendedBefore;
    lane.positions.set(task.id, counted);
    lane.lastRank = Math.max(lane.lastRank, task.rank);
    this.cachedTasks++;
    return counted;
  }

  /** The statements, once the triggers are in place and the cache reflects every commit; else null. */
  private current(): SqliteTaskPositions['queries'] {
    const stamp = `${this.dataVersion.get() as number}:${this.schemaVersion.get() as number}`;
    if (stamp === this.stamp && this.queries) return this.queries;
    this.dropAll();
    // A schema change may have taken the triggers with their table: they are made again.
    this.queries = this.watch();
    this.stamp = this.queries ? stamp : '';
    return this.queries;
  }

  private readLane(queries: NonNullable<SqliteTaskPositions['queries']>, laneId: string): LanePositions {
    const rows = queries.laneOrder.all(laneId) as Array<[string, number]>;
    const positions = new Map<string, number>();
    for (const [i, [id]] of rows.entries()) positions.set(id, i);
    const last = rows.at(-1);
    const lane: LanePositions = {
      positions,
      readLast: last === undefined ? null : { rank: last[1], id: last[0] },
      readCount: rows.length,
      lastRank: last === undefined ? Number.NEGATIVE_INFINITY : last[1],
    };
    this.cachedTasks += positions.size;
    while (this.cachedTasks > MAX_CACHED_TASKS && this.lanes.size > 0) {
      this.drop(this.lanes.keys().next().value as string);
    }
    this.lanes.set(laneId, lane);
    return lane;
  }

  private drop(laneId: string): void {
    const lane = this.lanes.get(laneId);
    if (!lane) return;
    this.cachedTasks -= lane.positions.size;
    this.lanes.delete(laneId);
  }

  private dropAll(): void {
    this.lanes.clear();
    this.cachedTasks = 0;
  }

  /** An insert: an archived task, or an active one ranked above the lane's last, shifts nobody. */
  private inserted(laneId: string, archived: number, rank: number): void {
    const lane = this.lanes.get(laneId);
    if (lane && (archived !== 0 || rank > lane.lastRank)) return;
    this.drop(laneId);
  }

  /**
   * Makes the TEMP triggers (outside a transaction: a rollback would take them with it) and prepares the
   * reads. Null before migrations made the table.
   */
  private watch(): SqliteTaskPositions['queries'] {
    try {
      this.sqlite.exec(`
        create temp trigger if not exists laneboard_positions_insert after insert on main.tasks
        begin select laneboard_task_inserted(new.lane_id, new.archived, new.rank); end;
        create temp trigger if not exists laneboard_positions_delete after delete on main.tasks
        begin select laneboard_lane_order_changed(old.lane_id); end;
        create temp trigger if not exists laneboard_positions_update
          after update of lane_id, archived, rank on main.tasks
        begin
          select laneboard_lane_order_changed(old.lane_id);
          select laneboard_lane_order_changed(new.lane_id);
        end;`);
      return {
        laneOrder: this.sqlite
          .prepare('select id, rank from tasks where lane_id = ? and archived = 0 order by rank, id')
          .raw(),
        appendedBefore: this.sqlite
          .prepare(
            `select cast(count(*) as integer) from (select 1 from tasks
             where lane_id = ? and archived = 0 and (rank, id) > (?, ?) and (rank, id) < (?, ?)
             limit ${REREAD_AFTER_APPENDS + 1})`,
          )
          .pluck(),
      };
    } catch {
      return null;
    }
  }
}

const caches = new WeakMap<BetterSqlite3.Database, SqliteTaskPositions>();

/** The connection's position cache, made on first use. */
export function sqliteTaskPositions(direct: SqliteDirect): SqliteTaskPositions {
  let cache = caches.get(direct.sqlite);
  if (!cache) {
    cache = new SqliteTaskPositions(direct.sqlite);
    caches.set(direct.sqlite, cache);
  }
  return cache;
}
