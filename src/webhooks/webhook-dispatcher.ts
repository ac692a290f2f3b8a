import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database.js';
import {
  claimDueDeliveries,
  type DeliveryJob,
  loadDeliveryJobs,
  recordAttempt,
  releaseLeases,
} from '../db/repositories/deliveries.js';
import type { SecretBox } from '../lib/secret-box.js';
import { type Clock, systemClock } from '../lib/time.js';
import { HostSlots } from './host-slots.js';
import { type AttemptResult, WebhookSender } from './http-sender.js';
import { DELIVERY_CHANNEL } from './outbox.js';
import { PgWakeListener } from './pg-wakeup.js';
import { outcomeOfAttempt } from './retry-schedule.js';
import { signDelivery } from './signing.js';
import type { HostResolver } from './url-guard.js';

export interface DispatcherLog {
  warn(detail: object, message: string): void;
  error(detail: object, message: string): void;
}

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
  /** Attempts in flight in this process. Default 64. */
  maxConcurrency?: number;
  /** Attempts in flight to one receiver host. Default 16. */
  perHostConcurrency?: number;
}

const USER_AGENT = 'Service-Webhooks/1.0';
const CLAIM_BATCH = 50;
const silentLog: DispatcherLog = { warn: () => {}, error: () => {} };

/**
 * Sends queued deliveries from the transactional outbox. Runs in every server process: woken at once by
 * this process's commits (wake) and other instances' (PostgreSQL NOTIFY), and by a poll interval so a
 * lost wake-up only delays. Each claim leases the deliveries for longer than an attempt can take, so a
 * crash mid-attempt only delays that delivery until the lease runs out, and no two claimers ever hold it
 * at the same time.
 */
export class WebhookDispatcher {
  private readonly clock: Clock;
  private readonly log: DispatcherLog;
  private readonly sender: WebhookSender;
  private readonly slots: HostSlots;
  private readonly maxConcurrency: number;
  private readonly leaseMs: number;
  private readonly instanceId = randomUUID();
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly secretCache = new Map<string, string>();
  private listener: PgWakeListener | null = null;
  private pollTimer: NodeJS.Timeout | null = null;
  private running = false;
  private cycle: Promise<void> | null = null;
  private wakeRequested = false;
  private claimSeq = 0;

  constructor(private readonly options: DispatcherOptions) {
    this.clock = options.clock ?? systemClock;
    this.log = options.log ?? silentLog;
    this.maxConcurrency = options.maxConcurrency ?? 64;
    this.slots = new HostSlots(options.perHostConcurrency ?? 16);
    // An attempt ends within the time-out; the rest of the lease covers recording it.
    this.leaseMs = options.timeoutMs + Math.max(2000, options.timeoutMs);
    this.sender = new WebhookSender({
      timeoutMs: options.timeoutMs,
      allowPrivate: options.allowPrivate,
      connectionsPerOrigin: options.perHostConcurrency ?? 16,
      ...(options.resolve ? { resolve: options.resolve } : {}),
    });
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.pollTimer = setInterval(() => this.wake(), this.options.pollIntervalMs ?? 1000);
    this.pollTimer.unref();
    const pool = this.options.database.pgPool;
    if (pool) {
      this.listener = new PgWakeListener(pool, DELIVERY_CHANNEL, () => this.wake(), this.log);
      this.listener.start();
    }
    this.wake();
  }

  /** Looks for due deliveries now. Cheap to call often: calls during a claim cycle coalesce into one more. */
  wake(): void {
    if (!this.running) return;
    this.wakeRequested = true;
    if (!this.cycle) this.cycle = this.runCycles().finally(() => (this.cycle = null));
  }

  /** Stops claiming, lets attempts in flight finish (each is bounded by the time-out), then closes sockets. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    if (this.pollTimer) clearInterval(this.pollTimer);
    await this.listener?.stop();
    await this.cycle;
    await Promise.allSettled([...this.inFlight.values()]);
    await this.sender.close();
  }

  private async runCycles(): Promise<void> {
    while (this.wakeRequested && this.running) {
      this.wakeRequested = false;
      try {
        await this.fillSlots();
      } catch (error) {
        // The database may be briefly unavailable; the next wake-up or poll tries again.
        this.log.error(
          { err: error instanceof Error ? error.message : String(error) },
          'webhook claim failed',
        );
        return;
      }
    }
  }

  private async fillSlots(): Promise<void> {
    const db = this.options.database.kysely;
    while (this.running) {
      const free = this.maxConcurrency - this.inFlight.size;
      if (free <= 0) return;
      const limit = Math.min(free, CLAIM_BATCH);
      const now = this.clock.now();
      const leaseOwner = `${this.instanceId}:${++this.claimSeq}`;
      const claimed = await claimDueDeliveries(db, this.options.database.dialect, {
        nowMs: now,
        limit,
        leaseUntil: now + this.leaseMs,
        leaseOwner,
        excludeWebhookIds: this.slots.saturatedWebhooks(),
      });
      if (claimed.length === 0) return;
      const jobs = await loadDeliveryJobs(
        db,
        claimed.map((c) => c.id).filter((id) => !this.inFlight.has(id)),
      );
      const giveBack: string[] = [];
      for (const job of jobs) {
        const host = this.slots.acquire(job.webhook_id, job.url);
        if (host === null) giveBack.push(job.id);
        else this.begin(job, leaseOwner, host);
      }
      // Their host filled up within this batch; they are excluded from the next claim until a slot frees.
      await releaseLeases(db, giveBack, leaseOwner);
      if (claimed.length < limit) return;
    }
  }

  private begin(job: DeliveryJob, leaseOwner: string, host: string): void {
    const attempt = this.attempt(job, leaseOwner)
      .catch((error: unknown) => {
        // Not recorded: the lease runs out and the delivery is attempted again.
        this.log.error(
          { deliveryId: job.id, err: error instanceof Error ? error.message : String(error) },
          'webhook attempt could not be recorded',
        );
      })
      .finally(() => {
        this.inFlight.delete(job.id);
        this.slots.release(host);
        this.wake();
      });
    this.inFlight.set(job.id, attempt);
  }

  private async attempt(job: DeliveryJob, leaseOwner: string): Promise<void> {
    const startedAt = this.clock.now();
    const headers = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'x-service-event': job.event_type,
      'x-service-delivery': job.id,
      ...signDelivery(this.secretOf(job.secret_sealed), job.id, Math.floor(startedAt / 1000), job.payload),
    };
    const result: AttemptResult = await this.sender.send(job.url, headers, job.payload);
    const attempts = job.attempts + 1;
    const finishedAt = this.clock.now();
    const outcome = outcomeOfAttempt(result.ok, attempts, this.options.retryDelaysMs, finishedAt);
    await recordAttempt(this.options.database.kysely, job.id, leaseOwner, {
      status: outcome.status,
      attempts,
      next_attempt_at: outcome.status === 'pending' ? outcome.nextAttemptAt : finishedAt,
      response_status: result.status,
      response_body: result.body,
      duration_ms: result.durationMs,
      error: result.error,
      last_attempt_at: new Date(startedAt).toISOString(),
    });
  }

  private secretOf(sealed: string): string {
    let secret = this.secretCache.get(sealed);
    if (secret === undefined) {
      if (this.secretCache.size >= 1000) this.secretCache.clear();
      secret = this.options.secrets.decrypt(sealed);
      this.secretCache.set(sealed, secret);
    }
    return secret;
  }
}
