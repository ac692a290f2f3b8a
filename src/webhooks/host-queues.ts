/** What the queues need to know of a claimed delivery. */
export interface QueuedJob {
  id: string;
  webhook_id: string;
  url: string;
}

const MAX_REMEMBERED_WEBHOOKS = 10_000;
const MAX_EXCLUDED = 500;

interface HostState<J> {
  inFlight: number;
  waiting: J[];
}

/**
 * Bounds attempts in flight per receiver host, so one slow or backlogged receiver holds at most its
 * share of the process's slots and cannot starve the others. Claimed deliveries beyond a host's slots
 * wait here (at most `maxWaiting` of them, one round by default), so a busy host is fed without a claim
 * per attempt; while a host has more than half of that waiting, its webhooks are left out of the next
 * claims.
 */
export class HostQueues<J extends QueuedJob> {
  private readonly hosts = new Map<string, HostState<J>>();
  private readonly hostOfWebhook = new Map<string, string>();
  private waitingTotal = 0;
  private inFlightTotal = 0;
  private readonly lowWater: number;

  constructor(
    private readonly perHost: number,
    private readonly maxWaiting: number = perHost,
  ) {
    this.lowWater = Math.floor(maxWaiting / 2);
  }

  /**
   * The queues of a process with `maxConcurrency` slots. One host's waiting line takes at most half of
   * the process's deliveries (less its attempts in flight), so the other hosts can always be claimed for,
   * and at most `rounds` of its per-host limit. At least one delivery waits, so a busy host's next attempt
   * needs no claim of its own; a floor of a whole round let one slow host hold every slot when the
   * process has few (6 slots, 3 per host: 3 in flight and 3 waiting).
   */
  static forProcess<J extends QueuedJob>(
    maxConcurrency: number,
    perHost: number,
    rounds: number,
  ): HostQueues<J> {
    const maxWaiting = Math.max(1, Math.min(rounds * perHost, Math.floor(maxConcurrency / 2) - perHost));
    return new HostQueues<J>(perHost, maxWaiting);
  }

  /** Deliveries claimed and not yet finished, counting those waiting for a slot. */
  get held(): number {
    return this.inFlightTotal + this.waitingTotal;
  }

  get inFlight(): number {
    return this.inFlightTotal;
  }

  /** Places a claimed delivery: 'start' (a slot was taken for it), 'wait', or 'full' (give it back). */
  offer(job: J): { verdict: 'start' | 'wait' | 'full'; host: string } {
    const host = hostKey(job.url);
    if (this.hostOfWebhook.size >= MAX_REMEMBERED_WEBHOOKS) this.hostOfWebhook.clear();
    this.hostOfWebhook.set(job.webhook_id, host);
    const state = this.state(host);
    if (state.inFlight < this.perHost) {
      state.inFlight++;
      this.inFlightTotal++;
      return { verdict: 'start', host };
    }
    if (state.waiting.length < this.maxWaiting) {
      state.waiting.push(job);
      this.waitingTotal++;
      return { verdict: 'wait', host };
    }
    return { verdict: 'full', host };
  }

  /** Frees the slot of a finished attempt; returns the host's next waiting delivery, its slot taken. */
  finish(host: string): J | undefined {
    const state = this.state(host);
    const next = state.waiting.shift();
    if (next) {
      this.waitingTotal--;
      return next;
    }
    state.inFlight--;
    this.inFlightTotal--;
    if (state.inFlight <= 0) this.hosts.delete(host);
    return undefined;
  }

  /** Whether the host's waiting line has run low enough to be refilled by a claim. */
  wantsMore(host: string): boolean {
    return (this.hosts.get(host)?.waiting.length ?? 0) <= this.lowWater;
  }

  /** Webhooks of hosts that have enough waiting (bounded, so the claim statement stays small). */
  excludedWebhooks(): string[] {
    const excluded: string[] = [];
    let any = false;
    for (const state of this.hosts.values()) if (state.waiting.length > this.lowWater) any = true;
    if (!any) return excluded;
    for (const [webhookId, host] of this.hostOfWebhook) {
      if (!this.wantsMore(host)) {
        excluded.push(webhookId);
        if (excluded.length >= MAX_EXCLUDED) break;
      }
    }
    return excluded;
  }

  /** Empties every waiting line (on stop); returns what was waiting so its leases can be given back. */
  drain(): J[] {
    const jobs: J[] = [];
    for (const state of this.hosts.values()) jobs.push(...state.waiting.splice(0));
    this.waitingTotal = 0;
    return jobs;
  }

  private state(host: string): HostState<J> {
    let state = this.hosts.get(host);
    if (!state) {
      state = { inFlight: 0, waiting: [] };
      this.hosts.set(host, state);
    }
    return state;
  }
}

/** Receivers are told apart by host and port; an unparsable URL gets its own key (its attempt fails). */
export function hostKey(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || (parsed.protocol === 'https:' ? '443' : '80')}`;
  } catch {
    return url;
  }
}
