import type BetterSqlite3 from 'better-sqlite3';
import type { TaskRow } from '../schema.js';
import type { SqliteDirect } from '../sqlite-direct.js';

/*
 * Dense positions of tasks on SQLite in O(1). Counted through tasks_lane_rank_idx, a position costs one
 * index entry per task before it (the 2 500th task of a lane read 2 500), and so did an append's. On
 * SQLite this process owns its connection's writes, so it can keep each lane's positions once read and
 * learn of every change from TEMP triggers (they live on this connection only, like the key-change
 * triggers): an append adds the new task at the end, anything else that may shift the lane (a move,
 * archiving, a delete, an insert between others) drops the lane, to be read again when next asked.
 *
 * What is kept is the connection's view, the open transaction's writes included, so a rollback drops
 * everything (the statement cache reports Kysely's `rollback`). Commits by other connections (a CLI
 * process on the same file, the dispatcher's thread) change `PRAGMA data_version`; then the counter of
 * migration 021, moved by every write that can shift a lane from any connection, tells whether one of
 * them touched the tasks (the dispatcher's never do: dropping everything on each of its commits made
 * every create under webhook load read its whole lane again). This connection follows the counter
 * through a TEMP trigger, so its own writes do not count as another's; a step it did not see means
 * another connection wrote in between. A schema change (`schema_version`: a rebuilt table loses its
 * triggers) drops everything too. PostgreSQL keeps counting: several instances write, and appends take
 * no lock there.
 */

/** Positions kept at most (whole lanes; the least recently read lane goes first). */
const MAX_CACHED_TASKS = 100_000;

/** Larger lanes keep only their count (appends stay O(1)); their details count positions. */
const MAX_LANE_POSITIONS = 20_000;

interface LanePositions {
  /** Every active task of the lane, by id; null for a lane over MAX_LANE_POSITIONS. */
  positions: Map<string, number> | null;
  /** The number of the lane's active tasks. */
  count: number;
  /** The highest rank among them (an active insert above it is an append). */
  lastRank: number;
}

interface Queries {
  laneOrder: BetterSqlite3.Statement;
  laneSize: BetterSqlite3.Statement;
  /** Migration 021's counter of writes that can shift positions. */
  changeStamp: BetterSqlite3.Statement;
}

export class SqliteTaskPositions {
  private readonly lanes = new Map<string, LanePositions>();
  /** Lanes read from the table so far (what the cache saves; tests and benchmarks look at it). */
  lanesRead = 0;
  private cachedTasks = 0;
  private dataStamp = -1;
  private schemaStamp = -1;
  /** The counter's value as far as this connection's cache reflects it (-1: not known). */
  private changeStamp = -1;
  private queries: Queries | null = null;
  private readonly dataVersion: BetterSqlite3.Statement;
  private readonly schemaVersion: BetterSqlite3.Statement;

  constructor(private readonly sqlite: BetterSqlite3.Database) {
    this.dataVersion = sqlite.prepare('pragma data_version').pluck();
    this.schemaVersion = sqlite.prepare('pragma schema_version').pluck();
    sqlite.function('laneboard_task_inserted', { varargs: false }, (lane, id, archived, rank) => {
      this.inserted(String(lane), String(id), Number(archived), Number(rank));
      return null;
    });
    sqlite.function('laneboard_lane_order_changed', { varargs: false }, (lane) => {
      this.drop(String(lane));
      return null;
    });
    sqlite.function('laneboard_task_change_stamp', { varargs: false }, (n) => {
      this.stampMoved(Number(n));
      return null;
    });
  }

  /**
   * The task's position (null when archived), as the connection sees the lane now. Undefined when it
   * cannot be answered here (the triggers cannot be made yet): count instead. `dataVersion`: the
   * connection's `data_version` read in the statement that read the task, if it was.
   */
  positionOf(
    task: Pick<TaskRow, 'id' | 'lane_id' | 'archived'>,
    dataVersion?: number,
  ): number | null | undefined {
    if (task.archived !== 0) return null;
    const lane = this.lane(task.lane_id, dataVersion);
    if (!lane?.positions) return undefined;
    const position = lane.positions.get(task.id);
    // Not there although active in this lane: nothing should cause it, but never answer from it.
    if (position === undefined) this.drop(task.lane_id);
    return position;
  }

  /** The number of the lane's active tasks (an append's position), or undefined as for positionOf. */
  activeCount(laneId: string): number | undefined {
    return this.lane(laneId)?.count;
  }

  /**
   * Drops everything: the transaction whose writes the cache may reflect is being rolled back, and with
   * it the triggers if that transaction made them.
   */
  rolledBack(): void {
    this.dropAll();
    this.queries = null;
    this.changeStamp = -1;
  }

  private lane(laneId: string, dataVersion?: number): LanePositions | undefined {
    const queries = this.current(dataVersion);
    if (!queries) return undefined;
    return this.lanes.get(laneId) ?? this.readLane(queries, laneId);
  }

  /**
   * The statements, once the triggers are in place, after forgetting what other connections' commits
   * may have changed; null when the triggers cannot be made (before migrations).
   */
  private current(dataVersion?: number): Queries | null {
    const data = dataVersion ?? (this.dataVersion.get() as number);
    if (this.queries && data === this.dataStamp) return this.queries;
    // Only another connection's commit moves data_version, and only such a commit can change the
    // schema once the server serves (its own connection migrates before the first use), so the schema
    // is looked at only then: one statement per use instead of two (each autocommit statement takes
    // and releases the WAL read lock, about 3.7 µs here).
    const schema = this.schemaVersion.get() as number;
    if (this.queries && schema === this.schemaStamp) {
      const stamp = this.queries.changeStamp.get() as number;
      if (stamp !== this.changeStamp) {
        this.dropAll();
        this.changeStamp = stamp;
      }
      this.dataStamp = data;
      return this.queries;
    }
    // First use, or a schema change (which may have taken the triggers with their table).
    this.dropAll();
    this.queries = this.watch();
    this.dataStamp = data;
    this.schemaStamp = this.schemaVersion.get() as number;
    this.changeStamp = this.queries ? (this.queries.changeStamp.get() as number) : -1;
    return this.queries;
  }

  private readLane(queries: Queries, laneId: string): LanePositions {
    this.lanesRead++;
    const rows = queries.laneOrder.all(laneId, MAX_LANE_POSITIONS + 1) as Array<[string, number]>;
    let lane: LanePositions;
    if (rows.length > MAX_LANE_POSITIONS) {
      const [count, lastRank] = queries.laneSize.get(laneId) as [number, number];
      lane = { positions: null, count, lastRank };
    } else {
      const positions = new Map<string, number>();
      for (const [i, [id]] of rows.entries()) positions.set(id, i);
      const last = rows.at(-1);
      lane = {
        positions,
        count: rows.length,
        lastRank: last === undefined ? Number.NEGATIVE_INFINITY : last[1],
      };
    }
    this.cachedTasks += lane.positions?.size ?? 1;
    while (this.cachedTasks > MAX_CACHED_TASKS && this.lanes.size > 0) {
      this.drop(this.lanes.keys().next().value as string);
    }
    this.lanes.set(laneId, lane);
    return lane;
  }

  private drop(laneId: string): void {
    const lane = this.lanes.get(laneId);
    if (!lane) return;
    this.cachedTasks -= lane.positions?.size ?? 1;
    this.lanes.delete(laneId);
  }

  private dropAll(): void {
    this.lanes.clear();
    this.cachedTasks = 0;
  }

  /**
   * This connection moved the counter: the next step of what the cache reflects, or else another
   * connection wrote tasks since the cache last looked, and nothing kept can be trusted.
   */
  private stampMoved(n: number): void {
    if (n !== this.changeStamp + 1 || this.changeStamp < 0) this.dropAll();
    this.changeStamp = n;
  }

  /** An insert: an archived task shifts nobody; an active one above the lane's last rank is appended. */
  private inserted(laneId: string, id: string, archived: number, rank: number): void {
    const lane = this.lanes.get(laneId);
    if (!lane || archived !== 0) return;
    if (rank <= lane.lastRank || lane.positions?.has(id)) {
      this.drop(laneId);
      return;
    }
    if (lane.positions && lane.count >= MAX_LANE_POSITIONS) {
      this.cachedTasks -= lane.positions.size - 1;
      lane.positions = null;
    }
    if (lane.positions) {
      lane.positions.set(id, lane.count);
      this.cachedTasks++;
    }
    lane.count++;
    lane.lastRank = rank;
  }

  /**
   * Makes the TEMP triggers (if made inside a transaction that then rolls back, rolledBack() has them
   * made again) and prepares the lane read. Null until migrations have made the table.
   */
  private watch(): Queries | null {
    try {
      this.sqlite.exec(`
        create temp trigger if not exists laneboard_positions_insert after insert on main.tasks
        begin select laneboard_task_inserted(new.lane_id, new.id, new.archived, new.rank); end;
        create temp trigger if not exists laneboard_positions_delete after delete on main.tasks
        begin select laneboard_lane_order_changed(old.lane_id); end;
        create temp trigger if not exists laneboard_positions_update
          after update of lane_id, archived, rank on main.tasks
        begin
          select laneboard_lane_order_changed(old.lane_id);
          select laneboard_lane_order_changed(new.lane_id);
        end;
        create temp trigger if not exists laneboard_positions_stamp after update on main.task_change_stamp
        begin select laneboard_task_change_stamp(new.n); end;`);
      return {
        laneOrder: this.sqlite
          .prepare('select id, rank from tasks where lane_id = ? and archived = 0 order by rank, id limit ?')
          .raw(),
        laneSize: this.sqlite
          .prepare('select count(*), max(rank) from tasks where lane_id = ? and archived = 0')
          .raw(),
        changeStamp: this.sqlite.prepare('select n from task_change_stamp').pluck(),
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
    const made = new SqliteTaskPositions(direct.sqlite);
    direct.rollbackListeners.add(() => made.rolledBack());
    caches.set(direct.sqlite, made);
    cache = made;
  }
  return cache;
}
