import { performance } from 'node:perf_hooks';
import type BetterSqlite3 from 'better-sqlite3';
import { type DatabaseConnection, SqliteDialect, type SqliteDialectConfig, SqliteDriver } from 'kysely';

/** How long a transaction waits for the write lock before it fails with SQLITE_BUSY. */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;
/** The pause between tries for the write lock. */
const LOCK_POLL_MS = 0.1;
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * SQLite refused a statement that therefore did nothing, because another connection holds the lock (or
 * is recovering the log): trying it again later is safe. Not SQLITE_BUSY_SNAPSHOT, which mid-transaction
 * means the transaction's snapshot is stale and only a rollback helps.
 */
export function isLockBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_RECOVERY';
}

/**
 * One statement's wait for the write lock, shared by the serving connection's BEGIN and the dispatcher
 * thread's connection (sqlite-side-connection.ts). `refused` rethrows anything but a lock refusal, and
 * a refusal once SQLITE_BUSY_TIMEOUT_MS have passed since the first.
 */
export class LockWait {
  private deadline = 0;

  refused(error: unknown): void {
    if (!isLockBusy(error)) throw error;
    const now = performance.now();
    if (this.deadline === 0) this.deadline = now + SQLITE_BUSY_TIMEOUT_MS;
    else if (now > this.deadline) throw error;
  }

  /** Blocks this thread for `ms` before the next try. */
  pause(ms: number): void {
    Atomics.wait(pause, 0, 0, ms);
  }
}

/**
 * The serving connection's dialect: a transaction that finds the write lock taken (by the webhook
 * dispatcher's thread, the checkpointer or a CLI process) waits for it without holding up the event
 * loop. SQLite's own busy handler sleeps inside the call, 1, 2, 5, 10 ... 100 ms at a time: the whole
 * process stood still for longer than the other writer held the lock (measured during a webhook fan-out:
 * 527 ms of 2.6 s spent asleep in BEGIN). Here BEGIN IMMEDIATE is tried without the busy handler, and
 * refused, tried again every 0.1 ms, letting the event loop run between tries (other requests' reads,
 * parsing, responses). Statements outside transactions keep SQLite's busy timeout.
 */
export class LockWaitingSqliteDialect extends SqliteDialect {
  constructor(
    private readonly connection: BetterSqlite3.Database,
    private readonly driverConfig: SqliteDialectConfig,
  ) {
    super(driverConfig);
  }

  override createDriver(): SqliteDriver {
    return new LockWaitingSqliteDriver(this.connection, this.driverConfig);
  }
}

// A PRAGMA sets the busy timeout when it is compiled, so a prepared one does nothing when run again;
// exec compiles it each time (about 0.5 µs).
const NO_BUSY_WAIT = 'pragma busy_timeout = 0';
const BUSY_WAIT = `pragma busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`;

class LockWaitingSqliteDriver extends SqliteDriver {
  constructor(
    private readonly connection: BetterSqlite3.Database,
    config: SqliteDialectConfig,
  ) {
    super(config);
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const wait = new LockWait();
    for (;;) {
      this.connection.exec(NO_BUSY_WAIT);
      try {
        await super.beginTransaction(connection);
        return;
      } catch (error) {
        wait.refused(error);
      } finally {
        this.connection.exec(BUSY_WAIT);
      }
      // Whatever is waiting on the event loop runs first; then a short sleep, so that waiting for a
      // writer on the other core does not spin this one.
      await new Promise<void>((resolve) => setImmediate(resolve));
      wait.pause(LOCK_POLL_MS);
    }
  }
}
