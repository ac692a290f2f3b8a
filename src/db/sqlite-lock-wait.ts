import { performance } from 'node:perf_hooks';
import type BetterSqlite3 from 'better-sqlite3';
import { type DatabaseConnection, SqliteDialect, type SqliteDialectConfig, SqliteDriver } from 'kysely';

/** How long a transaction waits for the write lock before it fails with SQLITE_BUSY. */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;
/**
 * The longest wait for a release before trying the lock again: writers outside this process's two
 * connections (the checkpointer's RESTART, a CLI process) do not count their releases.
 */
const RELEASE_WAIT_MS = 1;

/**
 * SQLite refused a statement that therefore did nothing, because another connection holds the lock (or
 * is recovering the log): trying it again later is safe. Not SQLITE_BUSY_SNAPSHOT, which mid-transaction
 * means the transaction's snapshot is stale and only a rollback helps.
 */
export function isLockBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_RECOVERY';
}

/** Atomics.waitAsync (ES2024; in Node since 16), which this project's ES2023 library does not declare. */
interface AtomicsWaitAsync {
  waitAsync(
    array: Int32Array,
    index: number,
    value: number,
    timeoutMs: number,
  ): { async: false; value: 'not-equal' | 'timed-out' } | { async: true; value: Promise<'ok' | 'timed-out'> };
}

/**
 * The write lock's releases by this process's connections to one file (the serving connection's and the
 * webhook dispatcher thread's), counted in memory both threads share. A connection refused the lock
 * waits for the other's next release (woken at once by Atomics.notify) instead of polling: the polling
 * woke every 0.1 ms and, on the serving connection, blocked the event loop for each pause; profiled at
 * 500 creates per second with a webhook, each thread spent a fifth of its time in those pauses.
 */
export class LockReleases {
  private readonly count: Int32Array;

  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(4)) {
    this.count = new Int32Array(buffer);
  }

  /** Read before trying the lock: a release after it ends the wait at once. */
  current(): number {
    return Atomics.load(this.count, 0);
  }

  /** This connection committed or rolled back a transaction: wake whoever waits. */
  released(): void {
    Atomics.add(this.count, 0, 1);
    Atomics.notify(this.count, 0);
  }

  /** Blocks this thread until a release after `seen` (for at most RELEASE_WAIT_MS). */
  waitBlocking(seen: number): void {
    Atomics.wait(this.count, 0, seen, RELEASE_WAIT_MS);
  }

  /** Resolves after a release after `seen` (or RELEASE_WAIT_MS); the event loop runs meanwhile. */
  async wait(seen: number): Promise<void> {
    const waited = (Atomics as unknown as AtomicsWaitAsync).waitAsync(this.count, 0, seen, RELEASE_WAIT_MS);
    if (waited.async) {
      // A pending waitAsync does not keep Node's event loop alive: a process with nothing else pending
      // (a CLI command; a server has its socket) would end mid-wait with its work undone. This timer
      // keeps it running until the wait is over: not RELEASE_WAIT_MS, since the wait's own timeout may
      // settle later than a timer of that length (seen on Node 26 under load).
      const keepAlive = setTimeout(() => {}, SQLITE_BUSY_TIMEOUT_MS);
      try {
        await waited.value;
      } finally {
        clearTimeout(keepAlive);
      }
    }
    // Already released: yield once anyway, so that what waits on the event loop runs between tries.
    else await new Promise<void>((resolve) => setImmediate(resolve));
  }
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
}

/**
 * The serving connection's dialect: a transaction that finds the write lock taken (by the webhook
 * dispatcher's thread, the checkpointer or a CLI process) waits for it without holding up the event
 * loop. SQLite's own busy handler sleeps inside the call, 1, 2, 5, 10 ... 100 ms at a time: the whole
 * process stood still for longer than the other writer held the lock (measured during a webhook fan-out:
 * 527 ms of 2.6 s spent asleep in BEGIN). Here BEGIN IMMEDIATE is tried without the busy handler, and
 * refused, tried again after the dispatcher thread's next release (LockReleases) or a millisecond,
 * the event loop running meanwhile (other requests' reads, parsing, responses). Its own commits and
 * rollbacks count as releases for the thread. Statements outside transactions keep SQLite's busy timeout.
 */
export class LockWaitingSqliteDialect extends SqliteDialect {
  constructor(
    private readonly connection: BetterSqlite3.Database,
    private readonly driverConfig: SqliteDialectConfig,
    private readonly releases: LockReleases,
  ) {
    super(driverConfig);
  }

  override createDriver(): SqliteDriver {
    return new LockWaitingSqliteDriver(this.connection, this.driverConfig, this.releases);
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
    private readonly releases: LockReleases,
  ) {
    super(config);
  }

  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.commitTransaction(connection);
    } finally {
      if (!this.connection.inTransaction) this.releases.released();
    }
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.rollbackTransaction(connection);
    } finally {
      if (!this.connection.inTransaction) this.releases.released();
    }
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const wait = new LockWait();
    for (;;) {
      const seen = this.releases.current();
      this.connection.exec(NO_BUSY_WAIT);
      try {
        await super.beginTransaction(connection);
        return;
      } catch (error) {
        wait.refused(error);
      } finally {
        this.connection.exec(BUSY_WAIT);
      }
      await this.releases.wait(seen);
    }
  }
}
