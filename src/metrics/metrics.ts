import { Counter, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/database.js';
import type { Clock } from '../lib/time.js';
import { registerOutboxGauges } from './outbox-gauges.js';
import { type ProcessGauges, registerProcessGauges } from './process-gauges.js';

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
 * What a request costs is one histogram observation (its series looked up in a map by one string);
 * everything read from the database or the process is read when Prometheus scrapes, not before.
 */
export class Metrics {
  private readonly registry = new Registry();
  private readonly requestDuration: Histogram<'method' | 'route' | 'status_class'>;
  /** The histogram's series by "method route class", so a request does not hash a label object. */
  private readonly requestSeries = new Map<string, Histogram.Internal<'method' | 'route' | 'status_class'>>();
  private readonly attempts: Counter<'outcome'>;
  private readonly process: ProcessGauges;

  constructor(options: MetricsOptions) {
    this.requestDuration = new Histogram({
      name: 'laneboard_http_request_duration_seconds',
      help: 'Time from a request arriving to its response being sent, by route pattern and status class.',
      labelNames: ['method', 'route', 'status_class'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
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
    const statusClass = `${Math.floor(statusCode / 100)}xx`;
    const key = `${method} ${route} ${statusClass}`;
    let series = this.requestSeries.get(key);
    if (series === undefined) {
      series = this.requestDuration.labels(method, route, statusClass);
      this.requestSeries.set(key, series);
    }
    series.observe(seconds);
  }

  /** Counts finished webhook attempts (the dispatcher's observer; the thread's arrive in batches). */
  countAttempts(outcome: AttemptOutcomeLabel, count: number): void {
    this.attempts.labels(outcome).inc(count);
  }

  /** The exposition text, gathered now. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  /** Stops the event-loop monitor. */
  close(): void {
    this.process.close();
  }
}
