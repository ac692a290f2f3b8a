/**
 * Runs `work` every `intervalMs`, never two at once (a run still going when the next is due is not
 * doubled), without keeping the process alive; `stop()` waits for the run in progress. The retention
 * jobs (webhook history, activities, notifications) run on it.
 */
export class PeriodicJob {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly work: () => Promise<unknown>,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (!this.running) this.running = this.work().finally(() => (this.running = null));
    }, this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
