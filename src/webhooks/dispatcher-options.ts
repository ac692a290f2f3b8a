import type { Database } from '../db/database.js';
import type { HostResolver } from '../lib/net/url-guard.js';
import type { SecretBox } from '../lib/secret-box.js';
import type { Clock } from '../lib/time.js';

/** Where a dispatcher reports what went wrong (the server's log, or the thread's messages to it). */
export interface DispatcherLog {
  warn(detail: object, message: string): void;
  error(detail: object, message: string): void;
}

/** What became of an attempt: delivered (2xx), failed with a retry to come, or failed for good. */
export type AttemptResult = 'delivered' | 'retrying' | 'failed';

/** Told of finished attempts (metrics): called on the dispatcher's path, so it must be cheap and not throw. */
export type AttemptObserver = (result: AttemptResult, count: number) => void;

export interface DispatcherOptions {
  database: Database;
  secrets: SecretBox;
  timeoutMs: number;
  retryDelaysMs: readonly number[];
  allowPrivate: boolean;
  clock?: Clock;
  log?: DispatcherLog;
  /** Replaces DNS at connect time (tests). */
  resolve?: HostResolver;
  /** Safety net for lost wake-ups and for retries coming due. Default 1 s. */
  pollIntervalMs?: number;
  /** Deliveries held by this process: in flight, or claimed and waiting for their host's slot. Default 512. */
  maxConcurrency?: number;
  /** Attempts in flight to one receiver host. Default 16. */
  perHostConcurrency?: number;
  /** Told of each attempt's result once it is made (GET /metrics). */
  onAttempts?: AttemptObserver;
}
