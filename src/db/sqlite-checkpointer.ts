import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { reassertHeapSizing } from '../lib/heap-sizing.js';

/*
 * SQLite in WAL mode copies the log back into the database file (a checkpoint) once the log passes
 * 1 000 pages, inside whichever commit crossed the line, and with `synchronous = NORMAL` that checkpoint
 * is where the fsyncs happen. On a VM disk those two fsyncs cost more than the rest of the writes
 * together: measured on the 2-core CI machine, a task insert plus its activity took 104 µs per
 * transaction with checkpoints in the commit and 28 µs without them. So the serving connection does not
 * checkpoint in the normal case: a worker thread with a connection of its own runs PASSIVE checkpoints
 * (which never block writers or readers) whenever the log has grown past the usual size. Durability is
 * unchanged: the same checkpoints, with the same fsyncs, happen off the request path.
 *
 * A PASSIVE checkpoint copies the log but cannot start it again: the next writer reuses the log from
 * its start only if nothing was committed while the checkpoint ran, which under steady writes never
 * happens. The log then grew to the backstop's 16 000 pages, where the serving connection's own
 * checkpoint stalled the event loop for 6-16 ms (its fsyncs) every few thousand commits. So once the
 * log has passed `restartFrames`, the worker follows its PASSIVE checkpoint with a RESTART one: it copies
 * the few frames committed meanwhile and waits for readers to leave the log, holding off writers for
 * those milliseconds (they wait without blocking the event loop, see sqlite-lock-wait.ts), so that
 * the next commit writes the log from its start.
 */

export interface CheckpointerOptions {
  /** Log size (bytes) from which the worker checkpoints; SQLite's own default is 1 000 pages (4 MB). */
  thresholdBytes?: number;
  /** How often the log's size is looked at (ms). */
  intervalMs?: number;
  /** Frames in the log from which a checkpoint also makes the next writer start the log again. */
  restartFrames?: number;
}

/** What the serving connection keeps as its own automatic checkpoint (pages): a backstop only. */
export const BACKSTOP_AUTOCHECKPOINT_PAGES = 16_000;

/** 16 MB of 4 KB pages: a quarter of the backstop, so that in normal operation it never runs. */
const DEFAULT_RESTART_FRAMES = 4096;

// Plain CommonJS evaluated in the worker, so it runs the same from dist/ and from the TypeScript
// sources under test. It loads only better-sqlite3 (by absolute path) and answers each request.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
const BUSY_TIMEOUT = 'busy_timeout = 1000';
db.pragma(BUSY_TIMEOUT);
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  let result = null;
  try {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)');
    result = { ok: true, log: row.log, checkpointed: row.checkpointed, restarted: false };
    if (row.log >= workerData.restartFrames) {
      // Writers wait while this runs, so it gives up after 100 ms (busy = 1: a writer or a long read
      // kept its lock) rather than hold them off for the full second; the next round tries again.
      db.pragma('busy_timeout = 100');
      let restart;
      try {
        [restart] = db.pragma('wal_checkpoint(RESTART)');
      } finally {
        db.pragma(BUSY_TIMEOUT);
      }
      result = { ok: true, log: restart.log, checkpointed: restart.checkpointed, restarted: restart.busy === 0 };
    }
  } catch (error) {
    result = { ok: false, code: String(error && error.code) };
  }
  parentPort.postMessage(result);
});
`;

export interface CheckpointResult {
  ok: boolean;
  /** Frames in the log, and how many of them are now in the database file. */
  log?: number;
  checkpointed?: number;
  /** The log was long enough to restart, and the next commit will write it from its start. */
  restarted?: boolean;
  code?: string;
}

/**
 * Watches `<file>-wal` and checkpoints it from a worker thread, started on the first checkpoint (a
 * database that is hardly written never starts one). Failures are reported through `onError` and
 * leave the serving connection's backstop checkpoint to do the work.
 */
export class SqliteCheckpointer {
  private worker: Worker | null = null;
  private running: Promise<CheckpointResult> | null = null;
  private readonly timer: NodeJS.Timeout;
  private readonly thresholdBytes: number;
  private readonly restartFrames: number;
  private closed = false;

  constructor(
    private readonly file: string,
    private readonly onError: (error: Error) => void,
    options: CheckpointerOptions = {},
  ) {
    this.thresholdBytes = options.thresholdBytes ?? 4 * 1024 * 1024;
    this.restartFrames = options.restartFrames ?? DEFAULT_RESTART_FRAMES;
    this.timer = setInterval(() => void this.checkpointIfGrown(), options.intervalMs ?? 250);
    this.timer.unref();
  }

  /** Checkpoints when the log has grown past the threshold and no checkpoint is running. */
  async checkpointIfGrown(): Promise<CheckpointResult | null> {
    if (this.closed || this.running) return null;
    const size = await stat(`${this.file}-wal`).then(
      (info) => info.size,
      () => 0,
    );
    if (size < this.thresholdBytes || this.closed || this.running) return null;
    return this.checkpoint();
  }

  /** Runs one PASSIVE checkpoint in the worker. */
  checkpoint(): Promise<CheckpointResult> {
    if (this.running) return this.running;
    const worker = this.ensureWorker();
    // Idle, the worker does not keep the process alive; while it checkpoints it does, or a process
    // with nothing else pending would end with the checkpoint (and whoever awaits it) cut off.
    worker.ref();
    this.running = new Promise<CheckpointResult>((resolve) => {
      const done = (result: CheckpointResult) => {
        worker.off('message', done);
        worker.off('exit', exited);
        worker.unref();
        this.running = null;
        if (!result.ok) this.onError(new Error(`background checkpoint failed (${result.code})`));
        resolve(result);
      };
      const exited = () => done({ ok: false, code: 'WORKER_EXITED' });
      worker.on('message', done);
      worker.once('exit', exited);
      worker.postMessage('checkpoint');
    });
    return this.running;
  }

  /** Stops watching and closes the worker's connection (before the serving connection closes). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.running;
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    // Kept alive until it has closed its connection: a process ending meanwhile (the CLI's, after
    // its last await) would tear the worker down mid-close.
    worker.ref();
    await new Promise<void>((resolve) => {
      worker.once('exit', () => resolve());
      worker.postMessage('close');
    });
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { file: this.file, driver, restartFrames: this.restartFrames },
      // The worker holds one connection and answers small messages: keep its heap small.
      resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 2 },
    });
    // Making the worker's heap put the process's heap flags back to V8's defaults.
    worker.once('online', reassertHeapSizing);
    worker.on('error', (error) => this.onError(error));
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = null;
    });
    worker.unref();
    this.worker = worker;
    return worker;
  }
}
