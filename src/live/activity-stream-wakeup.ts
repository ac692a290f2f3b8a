/**
 * A doorbell for a long poll: `ring()` wakes the current `wait`, or the next one at once when nobody
 * is waiting (a commit announced between a read and the wait is not missed).
 */
export class Wakeup {
  private rung = false;
  private wake: (() => void) | null = null;

  ring(): void {
    this.rung = true;
    this.wake?.();
  }

  /** Resolves on a ring (or one since the last wait), or after `ms`. */
  async wait(ms: number): Promise<void> {
    if (!this.rung) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => this.wake?.(), ms);
        this.wake = () => {
          clearTimeout(timer);
          this.wake = null;
          resolve();
        };
      });
    }
    this.rung = false;
  }
}
