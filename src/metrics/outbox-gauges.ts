import { Gauge, type Registry } from 'prom-client';
import {
  type DeliveryQueueState,
  deliveryQueueState,
  webhookCounts,
} from '../db/repositories/delivery-metrics.js';
import type { MetricsOptions } from './metrics.js';

/**
 * The webhook outbox as the database holds it (every instance's work, not only this process's), read
 * when Prometheus scrapes: a handful of index reads (db/repositories/delivery-metrics.ts). If the
 * database does not answer, these series are left out of that scrape and the rest is still served.
 */
export function registerOutboxGauges(registry: Registry, options: MetricsOptions): void {
  // The gauges' collect callbacks run together for one scrape: they share one read of the queue.
  let reading: Promise<DeliveryQueueState | null> | null = null;
  const queueState = () => {
    reading ??= deliveryQueueState(options.database.kysely, options.clock.now())
      .catch((error: unknown) => {
        options.onCollectError(error);
        return null;
      })
      .finally(() => {
        reading = null;
      });
    return reading;
  };
  const fromQueue = (name: string, help: string, value: (state: DeliveryQueueState) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const state = await queueState();
        if (state === null) this.reset();
        else this.set(value(state));
      },
    });

  fromQueue(
    'laneboard_webhook_deliveries_pending',
    'Webhook deliveries not yet delivered nor given up (due, in flight or waiting for a retry).',
    (state) => state.pending,
  );
  fromQueue(
    'laneboard_webhook_oldest_due_delivery_age_seconds',
    'How long the longest-waiting due delivery of an active webhook has been due (0 when none is due).',
    (state) =>
      state.oldestDueAt === null ? 0 : Math.max(0, (options.clock.now() - state.oldestDueAt) / 1000),
  );
  fromQueue(
    'laneboard_webhooks_failing',
    'Webhooks whose receiver failed the last attempt of a delivery that now waits for its retry.',
    (state) => state.failingWebhooks,
  );
  new Gauge({
    name: 'laneboard_webhooks',
    help: 'Webhooks by state: active (sent events) or paused.',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      try {
        const counts = await webhookCounts(options.database.kysely);
        this.labels('active').set(counts.active);
        this.labels('paused').set(counts.paused);
      } catch (error) {
        options.onCollectError(error);
        this.reset();
      }
    },
  });
}
