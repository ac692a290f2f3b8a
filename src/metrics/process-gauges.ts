import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Gauge, type Registry } from 'prom-client';
import type { MetricsOptions } from './metrics.js';

export interface ProcessGauges {
  close(): void;
}

/** How often the event loop's delay is sampled (a timer of the monitor's own, off the loop's work). */
const SAMPLE_MS = 20;

/**
 * What this process holds: its event loop's delay, its open live streams and, on PostgreSQL, its
 * connection pool.
 */
export function registerProcessGauges(registry: Registry, options: MetricsOptions): ProcessGauges {
  const delay = monitorEventLoopDelay({ resolution: SAMPLE_MS });
  delay.enable();
  new Gauge({
    name: 'laneboard_event_loop_delay_seconds',
    help: 'Event-loop delay since the previous scrape: median, 99th percentile and maximum (quantile 1).',
    labelNames: ['quantile'],
    registers: [registry],
    collect() {
      // Nanoseconds; each scrape reports the time since the one before, then starts afresh.
      const seconds = (ns: number) => (delay.count === 0 ? 0 : ns / 1e9);
      this.labels('0.5').set(seconds(delay.percentile(50)));
      this.labels('0.99').set(seconds(delay.percentile(99)));
      this.labels('1').set(seconds(delay.max));
      delay.reset();
    },
  });
  new Gauge({
    name: 'laneboard_live_streams_open',
    help: 'Live board streams (server-sent events) this process is serving now.',
    registers: [registry],
    collect() {
      this.set(options.openStreams());
    },
  });
  const pool = options.database.pgPool;
  if (pool !== null) {
    new Gauge({
      name: 'laneboard_db_pool_waiting',
      help: 'Queries waiting for a free connection of the PostgreSQL pool (LANEBOARD_DB_POOL_SIZE).',
      registers: [registry],
      collect() {
        this.set(pool.waitingCount);
      },
    });
    new Gauge({
      name: 'laneboard_db_pool_connections',
      help: 'Connections of the PostgreSQL pool, idle or in use.',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        this.labels('idle').set(pool.idleCount);
        this.labels('in_use').set(pool.totalCount - pool.idleCount);
      },
    });
  }
  return { close: () => delay.disable() };
}
