import { randomUUID } from 'node:crypto';
import {
  claimDueDeliveries,
  type DeliveryJob,
  loadDeliveryJobs,
  releaseHeldLeases,
  renewLease,
} from '../db/repositories/delivery-leases.js';
import { loggableError } from '../lib/loggable-error.js';
import { type Clock, systemClock } from '../lib/time.js';
import { AttemptWriter } from './attempt-writer.js';
import { DeliveryAttempts } from './delivery-attempt.js';
import { DeliveryWakeUps } from './delivery-wake-ups.js';
import type { DispatcherLog, DispatcherOptions } from './dispatcher-options.js';
import { ExcludingClaimPacer } from './excluding-claim-pacer.js';
import { HostQueues } from './host-queues.js';

export type { DispatcherLog, DispatcherOptions } from './dispatcher-options.js';

const CLAIM_BATCH = 128;
/** A finished attempt triggers a claim only once this many slots are free (claims are per batch, not per attempt). */
const CLAIM_MIN = 16;
/**
 * Deliveries that may wait for a host's slot, in rounds of its per-host limit. Several rounds let a claim
 * of a whole batch land while the host's attempts go on (with one round, most of a batch claimed for a
 * busy host was given back at once). A delivery that waits long has its lease renewed before its attempt.
 */
const WAITING_ROUNDS = 16;
const silentLog: DispatcherLog = { warn: () => {}, error: () => {} };
/**
 * Lease time beyond the attempt's own time-out, for recording its result (a batched write that may wait
 * behind other writes on a busy server). An attempt starts only with at least time-out + this left on
 * its lease, so the lease cannot run out (and another claimer send the delivery again) before the
 * result is stored.
 */
const RECORD_MARGIN_MS = 10_000;

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
  private readonly attempts: DeliveryAttempts;
  private readonly hosts: HostQueues<HeldJob>;
  private readonly writer: AttemptWriter;
  private readonly pacer: ExcludingClaimPacer;
  private readonly maxConcurrency: number;
  private readonly leaseMs: number;
  private readonly instanceId = randomUUID();
  /** Claimed deliveries not yet finished (in flight or waiting for a host slot), by id. */
  private readonly held = new Map<string, Promise<void> | null>();
  /** The same deliveries' jobs, whose lease (owner, expiry) is updated when it is renewed or re-claimed. */
  private readonly jobs = new Map<string, HeldJob>();
  private readonly wakeUps: DeliveryWakeUps;
  private running = false;
  private cycle: Promise<void> | null = null;
  private wakeRequested = false;
  private claimSeq = 0;
  /**
   * The last claim that left nothing out found fewer than it asked for: nothing more is due until a
   * commit, a poll or a retry's time. Finished attempts then do not claim (each would be an empty
   * transaction); wake() clears it.
   */
  private drained = false;

  constructor(private readonly options: DispatcherOptions) {
    this.clock = options.clock ?? systemClock;
    this.log = options.log ?? silentLog;
    this.pacer = new ExcludingClaimPacer(this.clock, () => this.wake());
    this.maxConcurrency = options.maxConcurrency ?? 512;
    const perHost = options.perHostConcurrency ?? 16;
    this.hosts = HostQueues.forProcess<HeldJob>(this.maxConcurrency, perHost, WAITING_ROUNDS);
    // A claimed delivery usually waits at most one round of its host's attempts, then takes one attempt,
    // each bounded by the time-out; the rest of the lease covers recording the result. One that waited
    // longer has its lease renewed before its attempt starts (see begin).
    this.leaseMs = 2 * options.timeoutMs + RECORD_MARGIN_MS;
    this.attempts = new DeliveryAttempts({
      secrets: options.secrets,
      clock: this.clock,
      timeoutMs: options.timeoutMs,
      retryDelaysMs: options.retryDelaysMs,
      allowPrivate: options.allowPrivate,
      connectionsPerOrigin: perHost,
      ...(options.resolve ? { resolve: options.resolve } : {}),
    });
    this.wakeUps = new DeliveryWakeUps(options.database, this.log, options.pollIntervalMs ?? 1000, () =>
      this.wake(),
    );
    this.writer = new AttemptWriter(options.database, (error, count) =>
      this.log.error({ count, err: loggableError(error) }, 'webhook attempts could not be recorded'),
    );
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.wakeUps.start();
    this.wake();
  }

  /** Nothing to get ready: this dispatcher runs in the server's own thread. */
  prepare(): void {}

  /** Looks for due deliveries now. Cheap to call often: calls during a claim cycle coalesce into one more. */
  wake(): void {
    // Something may have come due (a commit, a poll, another instance): worth a claim again.
    this.drained = false;
    this.wakeForSlots();
  }

  /** Claims for freed slots, unless the last claim showed that nothing more is due. */
  private wakeForSlots(): void {
    if (!this.running || this.drained) return;
    this.wakeRequested = true;
    if (!this.cycle) this.cycle = this.runCycles().finally(() => (this.cycle = null));
  }

  /**
   * Stops claiming, gives back deliveries still waiting for a slot, lets attempts in flight finish (each
   * is bounded by the time-out), records them, then closes sockets.
   */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.pacer.stop();
    await this.wakeUps.stop();
    await this.cycle;
    const waiting = this.hosts.drain();
    for (const job of waiting) {
      this.held.delete(job.id);
      this.jobs.delete(job.id);
    }
    await this.giveBack(waiting.map((job) => ({ id: job.id, leaseOwner: job.leaseOwner })));
    await Promise.allSettled([...this.held.values()]);
    await this.writer.flush();
    await this.attempts.close();
  }

  /**
   * Resolves once this dispatcher is idle: no attempt in flight or waiting for a slot, every result
   * written, and a claim made after them found nothing due (so a retry that came due is attempted
   * first). For tests that check "nothing more is sent"; a stopped dispatcher is idle.
   */
  async whenIdle(): Promise<void> {
    for (;;) {
      const attempts = [...this.held.values()].filter((attempt) => attempt !== null);
      if (attempts.length > 0) await Promise.allSettled(attempts);
      else if (this.held.size > 0) await new Promise((resolve) => setImmediate(resolve));
      await this.cycle;
      if (this.held.size > 0) continue;
      await this.writer.flush();
      if (!this.running) return;
      this.wake();
      await this.cycle;
      if (this.held.size === 0 && !this.writer.hasPending) return;
    }
  }

  private async runCycles(): Promise<void> {
    while (this.wakeRequested && this.running) {
      this.wakeRequested = false;
      try {
        await this.claimCycle();
      } catch (error) {
        // The database may be briefly unavailable; the next wake-up or poll tries again.
        this.log.error({ err: loggableError(error) }, 'webhook claim failed');
        return;
      }
    }
  }

  private async claimCycle(): Promise<void> {
    const db = this.options.database.kysely;
    while (this.running) {
      const capacity = this.maxConcurrency - this.hosts.held;
      if (capacity <= 0) return;
      const excluded = this.hosts.excludedWebhooks();
      if (excluded.length > 0 && !this.pacer.mayRun()) return;
      const limit = Math.min(capacity, CLAIM_BATCH);
      const now = this.clock.now();
      const leaseOwner = `${this.instanceId}:${++this.claimSeq}`;
      const scanLimit = excluded.length > 0 ? this.pacer.scanLimit() : undefined;
      // One transaction: the results gathered so far, the claim and the claimed deliveries' details. On
      // SQLite each transaction waits for the one connection behind the requests' transactions, so one
      // turn per claim instead of three keeps deliveries flowing while the API is busy.
      const { claimed, jobs } = await db.transaction().execute(async (trx) => {
        await this.writer.writeWith(trx);
        const claimed = await claimDueDeliveries(trx, this.options.database.dialect, {
          nowMs: now,
          limit,
          leaseUntil: now + this.leaseMs,
          leaseOwner,
          excludeWebhookIds: excluded,
          ...(scanLimit === undefined ? {} : { scanLimit }),
        });
        const fresh: string[] = [];
        for (const { id } of claimed) {
          const mine = this.jobs.get(id);
          if (!mine) {
            fresh.push(id);
            continue;
          }
          // Still held here, its lease had run out and this claim took it again: it now holds the new
          // lease, which its result must be recorded under (the old one no longer matches).
          mine.leaseOwner = leaseOwner;
          mine.leaseUntil = now + this.leaseMs;
        }
        return { claimed, jobs: await loadDeliveryJobs(trx, fresh) };
      });
      if (excluded.length > 0) this.pacer.claimed(claimed.length);
      else if (claimed.length < limit) this.drained = true;
      if (claimed.length === 0) return;
      const refused: Array<{ id: string; leaseOwner: string }> = [];
      for (const row of jobs) {
        const job: HeldJob = { ...row, leaseOwner, leaseUntil: now + this.leaseMs };
        const { verdict, host } = this.hosts.offer(job);
        if (verdict === 'full') refused.push({ id: job.id, leaseOwner });
        else if (verdict === 'wait') {
          this.held.set(job.id, null);
          this.jobs.set(job.id, job);
        } else this.begin(job, host);
      }
      // Their host already has a full round waiting; the next claims leave its webhooks out.
      await this.giveBack(refused);
      if (claimed.length < limit || refused.length > 0) return;
    }
  }

  private begin(job: HeldJob, host: string): void {
    this.jobs.set(job.id, job);
    const attempt = this.leaseForAttempt(job)
      .then((held) => (held ? this.attempt(job) : undefined))
      .catch((error: unknown) => {
        // Not recorded: the lease runs out and the delivery is attempted again.
        this.log.error({ deliveryId: job.id, err: loggableError(error) }, 'webhook attempt failed to run');
      })
      .finally(() => this.finished(job, host));
    this.held.set(job.id, attempt);
  }

  /**
   * Whether the delivery's lease lasts through the attempt and the recording of its result, renewing it
   * when it waited long for a slot. False when another claimer took it over: it is not attempted here.
   */
  private async leaseForAttempt(job: HeldJob): Promise<boolean> {
    const now = this.clock.now();
    if (job.leaseUntil - now >= this.options.timeoutMs + RECORD_MARGIN_MS) return true;
    const leaseUntil = now + this.leaseMs;
    if (!(await renewLease(this.options.database.kysely, job.id, job.leaseOwner, leaseUntil))) return false;
    job.leaseUntil = leaseUntil;
    return true;
  }

  private finished(job: HeldJob, host: string): void {
    this.held.delete(job.id);
    this.jobs.delete(job.id);
    const next = this.hosts.finish(host);
    if (next && this.running) this.begin(next, host);
    else if (next) void this.giveBack([{ id: next.id, leaseOwner: next.leaseOwner }]);
    if (this.maxConcurrency - this.hosts.held >= CLAIM_MIN || this.hosts.wantsMore(host)) this.wakeForSlots();
  }

  private async attempt(job: HeldJob): Promise<void> {
    const record = await this.attempts.attempt(job);
    // Read after the attempt: a claim during it may have given this delivery a new lease.
    this.writer.add(job.id, job.leaseOwner, record);
    this.options.onAttempts?.(record.status === 'pending' ? 'retrying' : record.status, 1);
  }

  private async giveBack(jobs: Array<{ id: string; leaseOwner: string }>): Promise<void> {
    await releaseHeldLeases(this.options.database.kysely, jobs).catch((error: unknown) =>
      // Not released: they are due again when the lease runs out.
      this.log.warn({ err: loggableError(error) }, 'webhook leases could not be released'),
    );
  }
}

type HeldJob = DeliveryJob & { leaseOwner: string; leaseUntil: number };
