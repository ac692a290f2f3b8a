const MAX_REMEMBERED_WEBHOOKS = 10_000;
const MAX_EXCLUDED = 500;

/**
 * Bounds attempts in flight per receiver host, so one slow receiver holds at most its share of the
 * process's slots and cannot starve the others. It also remembers which host each webhook targets, so
 * the next claim can leave out the webhooks of hosts that are full.
 */
export class HostSlots {
  private readonly inFlight = new Map<string, number>();
  private readonly hostOfWebhook = new Map<string, string>();

  constructor(private readonly perHost: number) {}

  /** Takes a slot for the webhook's host; returns the host key, or null when that host is full. */
  acquire(webhookId: string, url: string): string | null {
    const host = hostKey(url);
    if (this.hostOfWebhook.size >= MAX_REMEMBERED_WEBHOOKS) this.hostOfWebhook.clear();
    this.hostOfWebhook.set(webhookId, host);
    const used = this.inFlight.get(host) ?? 0;
    if (used >= this.perHost) return null;
    this.inFlight.set(host, used + 1);
    return host;
  }

  release(host: string): void {
    const used = (this.inFlight.get(host) ?? 1) - 1;
    if (used <= 0) this.inFlight.delete(host);
    else this.inFlight.set(host, used);
  }

  /** Webhooks whose host has no free slot (bounded, so the claim statement stays small). */
  saturatedWebhooks(): string[] {
    const excluded: string[] = [];
    if (![...this.inFlight.values()].some((used) => used >= this.perHost)) return excluded;
    for (const [webhookId, host] of this.hostOfWebhook) {
      if ((this.inFlight.get(host) ?? 0) >= this.perHost) {
        excluded.push(webhookId);
        if (excluded.length >= MAX_EXCLUDED) break;
      }
    }
    return excluded;
  }
}

/** Receivers are told apart by host and port; an unparsable URL gets its own key (its attempt fails). */
function hostKey(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || (parsed.protocol === 'https:' ? '443' : '80')}`;
  } catch {
    return url;
  }
}
