import { Worker } from 'node:worker_threads';
import { reassertHeapSizing } from '../lib/heap-sizing.js';
import { loggableError } from '../lib/loggable-error.js';
import type { AttemptObserver, AttemptResult } from './dispatcher-options.js';
import type { DispatcherLog } from './webhook-dispatcher.js';

/** What the server needs of a dispatcher, in this thread or another. */
export interface Dispatcher {
  start(): void;
  /** Something may be due: look for deliveries now. */
  wake(): void;
  /**
   * A webhook was created: be ready for its deliveries (the threaded dispatcher starts its thread now
   * rather than when the first event is queued; nothing to do in process).
   */
  prepare(): void;
  /**
   * Resolves once no attempt is in flight or waiting, every result is written and nothing is due (tests
   * wait on it instead of sleeping; see WebhookDispatcher.whenIdle).
   */
  whenIdle(): Promise<void>;
  stop(): Promise<void>;
}

/** Everything the worker needs to build its own dispatcher (structured-clonable: no functions). */
export interface DispatcherThreadSettings {
  /** The SQLite file's directory (the worker opens its own connection to the same file). */
  dataDir: string;
  sqliteFile?: string;
  masterKey: string;
  timeoutMs: number;
  retryDelaysMs: readonly number[];
  allowPrivate: boolean;
  pollIntervalMs?: number;
  maxConcurrency?: number;
  perHostConcurrency?: number;
  /** Send the attempts' results back (`attempts` messages) for the server's metrics. */
  reportAttempts?: boolean;
  /**
   * The serving connection's count of write-lock releases (Database.sqliteLockReleases), shared: each
   * connection waits for the other's next release. Without it the thread tries every millisecond.
   */
  lockReleases?: SharedArrayBuffer;
}

/** Attempts finished on the thread since its last report, by result. */
export type AttemptCounts = Partial<Record<AttemptResult, number>>;

export type ToWorker = { type: 'wake' } | { type: 'whenIdle'; id: number } | { type: 'stop' };
export type FromWorker =
  | { type: 'log'; level: 'warn' | 'error'; detail: object; message: string }
  | { type: 'attempts'; counts: AttemptCounts }
  | { type: 'idle'; id: number }
  | { type: 'stopped' };

const YOUNG_GENERATION_MB = 8;
/** A worker that died unexpectedly is started again after this long (its leases run out meanwhile). */
const RESTART_DELAY_MS = 1000;
/** After the stop's attempts (bounded by the time-out), how long the worker may take to close. */
const STOP_MARGIN_MS = 15_000;

/**
 * The webhook dispatcher on its own thread, with its own SQLite connection (SQLite servers only). On
 * SQLite every statement runs synchronously on the event loop that issued it, so in the server's thread
 * a burst of request transactions kept the dispatcher from reading its sockets and firing its timers:
 * attempts waited for the burst to end. Its own thread reads them at once, and uses the second core.
 * Correctness does not depend on the thread: deliveries, leases and results stay in the database
 * exactly as with the in-process dispatcher (WAL lets the two connections read concurrently, and
 * BEGIN IMMEDIATE serialises their writes; see sqlite-side-connection.ts). Commits here wake it by a
 * message.
 */
export class ThreadedDispatcher implements Dispatcher {
  private worker: Worker | null = null;
  private running = false;
  private restartTimer: NodeJS.Timeout | null = null;
  private lookup: Promise<void> = Promise.resolve();
  /** whenIdle() calls the thread has not answered yet, by id. */
  private readonly idleWaits = new Map<number, () => void>();
  private idleSeq = 0;

  constructor(
    private readonly settings: DispatcherThreadSettings,
    private readonly log: DispatcherLog,
    /** Whether any webhook is active: if so the thread starts at once. */
    private readonly anyActiveWebhook: () => Promise<boolean>,
    /** Told of the thread's attempts (settings.reportAttempts), in batches. */
    private readonly onAttempts?: AttemptObserver,
  ) {}

  /** Resolves once start() has looked for an active webhook (and started the thread if it found one). */
  get started(): Promise<void> {
    return this.lookup;
  }

  /** Whether the thread is running (or being started). */
  get hasThread(): boolean {
    return this.worker !== null;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    // A server without webhooks never needs the thread (nor its memory). One with active webhooks starts
    // it now: started by the first event instead, it spent its start-up (loading its modules, opening
    // its connection) while that event and the next ones waited. Otherwise it starts when a webhook is
    // created (prepare) or deliveries are queued (a resumed webhook's, a redelivery).
    this.lookup = this.anyActiveWebhook().then(
      (active) => {
        if (active) this.spawnIfIdle();
      },
      (error: unknown) => {
        this.log.warn({ err: loggableError(error) }, 'active webhooks could not be looked up');
        this.spawnIfIdle();
      },
    );
  }

  wake(): void {
    if (this.worker) this.worker.postMessage({ type: 'wake' } satisfies ToWorker);
    // The new thread's dispatcher claims as it starts.
    else this.spawnIfIdle();
  }

  prepare(): void {
    this.spawnIfIdle();
  }

  /** Asks the thread; without a thread nothing is in flight. A thread that ends answers them all. */
  whenIdle(): Promise<void> {
    const worker = this.worker;
    if (!worker) return Promise.resolve();
    const id = ++this.idleSeq;
    return new Promise((resolve) => {
      this.idleWaits.set(id, resolve);
      worker.postMessage({ type: 'whenIdle', id } satisfies ToWorker);
    });
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    // The worker stops claiming, lets its attempts finish, records them, closes its connection and ends.
    worker.postMessage({ type: 'stop' } satisfies ToWorker);
    const limit = setTimeout(() => void worker.terminate(), this.settings.timeoutMs + STOP_MARGIN_MS);
    await exited;
    clearTimeout(limit);
    this.worker = null;
  }

  private spawnIfIdle(): void {
    if (this.running && !this.worker && !this.restartTimer) this.spawn();
  }

  private spawn(): void {
    const worker = new Worker(new URL('./dispatcher-worker.js', import.meta.url), {
      workerData: this.settings,
      // The young generation is what grows under load (to 48 MB by default); a small one costs a few more
      // scavenges of the thread's short-lived objects, on a thread that has a core to itself.
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    this.worker = worker;
    // Making the worker's heap put the process's heap flags back to V8's defaults.
    worker.once('online', reassertHeapSizing);
    worker.on('message', (message: FromWorker) => {
      if (message.type === 'log') this.log[message.level](message.detail, message.message);
      else if (message.type === 'idle') this.answerIdle(message.id);
      else if (message.type === 'attempts') this.countAttempts(message.counts);
    });
    worker.on('error', (error) => {
      this.log.error(
        { err: { type: error.name, message: error.message } },
        'webhook dispatcher thread failed',
      );
    });
    worker.on('exit', (code) => {
      for (const id of [...this.idleWaits.keys()]) this.answerIdle(id);
      if (this.worker !== worker || !this.running) return;
      this.worker = null;
      this.log.error({ code }, 'webhook dispatcher thread ended; starting it again');
      this.restartTimer = setTimeout(() => {
        this.restartTimer = null;
        if (this.running) this.spawn();
      }, RESTART_DELAY_MS);
      this.restartTimer.unref();
    });
  }

  private countAttempts(counts: AttemptCounts): void {
    for (const [result, count] of Object.entries(counts) as Array<[AttemptResult, number]>) {
      this.onAttempts?.(result, count);
    }
  }

  private answerIdle(id: number): void {
    this.idleWaits.get(id)?.();
    this.idleWaits.delete(id);
  }
}
