import { Counter, Registry } from 'prom-client';
import type { Database } from '../db/database.js';
import type { Clock } from '../lib/time.js';
import { registerOutboxGauges } from './outbox-gauges.js';
import { type ProcessGauges, registerProcessGauges } from './process-gauges.js';
import { RequestHistogram } from './request-histogram.js';

const STATUS_CLASSES = ['0xx', '1xx', '2xx', '3xx', '4xx', '5xx'];

/** What became of a webhook attempt: delivered (2xx), failed with a retry to come, or failed for good. */
export type AttemptOutcomeLabel = 'delivered' | 'retrying' | 'failed';

export interface MetricsOptions {
  database: Database;
  clock: Clock;
  /** Live board streams open in this process now. */
  openStreams(): number;
  /** A scrape could not read the database: its gauges are left out of that scrape. */
  onCollectError(error: unknown): void;
}

/**
 * The process's Prometheus metrics (`GET /metrics`), built only when LANEBOARD_METRICS_TOKEN is set.
 * What a request costs is one histogram observation (its series looked up in a map by one string, see
 * request-histogram.ts); everything read from the database or the process is read when Prometheus
 * scrapes, not before.
 */
export class Metrics {
  private readonly registry = new Registry();
  private readonly requestDuration = new RequestHistogram(
    'laneboard_http_request_duration_seconds',
    'Time from a request arriving to its response being sent, by route pattern and status class.',
  );
  private readonly attempts: Counter<'outcome'>;
  private readonly process: ProcessGauges;

  constructor(options: MetricsOptions) {
    this.attempts = new Counter({
      name: 'laneboard_webhook_attempts_total',
      help: 'Webhook delivery attempts made by this process, by outcome (delivered, retrying, failed).',
      labelNames: ['outcome'],
      registers: [this.registry],
    });
    // Every outcome from the start, so rate() and alerts see 0 rather than no series.
    for (const outcome of ['delivered', 'retrying', 'failed'] as const) this.attempts.labels(outcome).inc(0);
    // The pool is read first (collect callbacks run in this order): the scrape's own queries must not
    // count as waits.
    this.process = registerProcessGauges(this.registry, options);
    registerOutboxGauges(this.registry, options);
  }

  /** Counts one answered request; `route` is the route's pattern (`/api/ext/v1/boards/:boardId`). */
  observeRequest(method: string, route: string, statusCode: number, seconds: number): void {
    const statusClass = STATUS_CLASSES[Math.floor(statusCode / 100)] ?? `${Math.floor(statusCode / 100)}xx`;
    this.requestDuration.observe(method, route, statusClass, seconds);
  }

  /** Counts finished webhook attempts (the dispatcher's observer; the thread's arrive in batches). */
  countAttempts(outcome: AttemptOutcomeLabel, count: number): void {
    this.attempts.labels(outcome).inc(count);
  }

  /** The exposition text, gathered now. */
  async render(): Promise<{ contentType: string; body: string }> {
    const body = `${await this.registry.metrics()}\n${this.requestDuration.exposition()}`;
    return { contentType: this.registry.contentType, body };
  }

  /** Stops the event-loop monitor. */
  close(): void {
    this.process.close();
  }
}
