import type { Clock } from '../lib/time.js';

/** While some host has enough waiting, claims must skip its deliveries; such claims run at most this often. */
const EXCLUDING_CLAIM_GAP_MS = 50;
/** The longest gap, reached by doubling while excluding claims find nothing. */
const MAX_EXCLUDING_CLAIM_GAP_MS = 1000;
/**
 * An excluding claim looks through this many of the first due deliveries (its cost stays flat however
 * long the backlogged hosts' backlog); every few seconds one looks through all of them, so another
 * host's deliveries behind a long backlog still go out.
 */
const EXCLUDING_SCAN_LIMIT = 500;
const FULL_SCAN_GAP_MS = 5000;

/**
 * Spaces out the claims that must leave backlogged hosts' webhooks out: each scans past their deliveries,
 * so running one per finished attempt would cost a scan per attempt. While they find nothing (every due
 * delivery belongs to a backlogged host, the usual case with one busy receiver) the gap doubles up to
 * MAX_EXCLUDING_CLAIM_GAP_MS; one that finds some brings it back. When one is refused, a timer wakes the
 * dispatcher once the gap has passed.
 */
export class ExcludingClaimPacer {
  private last = 0;
  private gap = EXCLUDING_CLAIM_GAP_MS;
  /** Set by the timer: the next excluding claim may run. */
  private due = false;
  private timer: NodeJS.Timeout | null = null;
  private lastFullScan = 0;

  constructor(
    private readonly clock: Clock,
    private readonly wake: () => void,
  ) {}

  /** Whether an excluding claim may run now; when not, the dispatcher is woken when it may. */
  mayRun(): boolean {
    const now = this.clock.now();
    const wait = this.last + this.gap - now;
    // The timer also lets the next one run, so a clock that stands still (tests) cannot block them.
    if (wait <= 0 || this.due) {
      this.due = false;
      this.last = now;
      return true;
    }
    if (!this.timer) {
      this.timer = setTimeout(
        () => {
          this.timer = null;
          this.due = true;
          this.wake();
        },
        Math.min(wait, this.gap),
      );
      this.timer.unref();
    }
    return false;
  }

  /** How many due deliveries the excluding claim that mayRun allowed looks through (undefined: all). */
  scanLimit(): number | undefined {
    const now = this.clock.now();
    if (now - this.lastFullScan < FULL_SCAN_GAP_MS) return EXCLUDING_SCAN_LIMIT;
    this.lastFullScan = now;
    return undefined;
  }

  /** What the excluding claim that mayRun allowed found: nothing lengthens the gap, something resets it. */
  claimed(count: number): void {
    this.gap = count > 0 ? EXCLUDING_CLAIM_GAP_MS : Math.min(this.gap * 2, MAX_EXCLUDING_CLAIM_GAP_MS);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
