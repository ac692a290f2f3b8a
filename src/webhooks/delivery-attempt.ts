import type { AttemptRecord } from '../db/repositories/delivery-attempt-results.js';
import type { DeliveryJob } from '../db/repositories/delivery-leases.js';
import type { HostResolver } from '../lib/net/url-guard.js';
import type { SecretBox } from '../lib/secret-box.js';
import type { Clock } from '../lib/time.js';
import { WebhookSender } from './http-sender.js';
import { outcomeOfAttempt } from './retry-schedule.js';
import { signDelivery } from './signing.js';

const USER_AGENT = 'Service-Webhooks/1.0';
/** Decrypted webhook secrets kept, so a batch to one webhook decrypts its secret once. */
const SECRET_CACHE_SIZE = 1000;

export interface DeliveryAttemptOptions {
  secrets: SecretBox;
  clock: Clock;
  timeoutMs: number;
  retryDelaysMs: readonly number[];
  allowPrivate: boolean;
  /** Connections kept per receiver origin (the per-host concurrency). */
  connectionsPerOrigin: number;
  resolve?: HostResolver;
}

/**
 * One attempt of one delivery: the signed request (the stored body byte for byte), sent through the
 * connect-time address guard, and what to record of it (the next status and attempt time from the
 * retry schedule). Scheduling and leases are the dispatcher's.
 */
export class DeliveryAttempts {
  private readonly sender: WebhookSender;
  private readonly secretCache = new Map<string, string>();

  constructor(private readonly options: DeliveryAttemptOptions) {
    this.sender = new WebhookSender({
      timeoutMs: options.timeoutMs,
      allowPrivate: options.allowPrivate,
      connectionsPerOrigin: options.connectionsPerOrigin,
      ...(options.resolve ? { resolve: options.resolve } : {}),
    });
  }

  async attempt(job: DeliveryJob): Promise<AttemptRecord> {
    const { clock, retryDelaysMs } = this.options;
    const startedAt = clock.now();
    const headers = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'x-service-event': job.event_type,
      'x-service-delivery': job.id,
      ...signDelivery(this.secretOf(job.secret_sealed), job.id, Math.floor(startedAt / 1000), job.payload),
    };
    const result = await this.sender.send(job.url, headers, job.payload);
    const attempts = job.attempts + 1;
    const finishedAt = clock.now();
    const outcome = outcomeOfAttempt(result.ok, attempts, retryDelaysMs, finishedAt);
    return {
      status: outcome.status,
      attempts,
      next_attempt_at: outcome.status === 'pending' ? outcome.nextAttemptAt : finishedAt,
      response_status: result.status,
      response_body: result.body,
      duration_ms: result.durationMs,
      error: result.error,
      last_attempt_at: new Date(startedAt).toISOString(),
    };
  }

  async close(): Promise<void> {
    await this.sender.close();
  }

  private secretOf(sealed: string): string {
    let secret = this.secretCache.get(sealed);
    if (secret === undefined) {
      if (this.secretCache.size >= SECRET_CACHE_SIZE) this.secretCache.clear();
      secret = this.options.secrets.decrypt(sealed);
      this.secretCache.set(sealed, secret);
    }
    return secret;
  }
}
