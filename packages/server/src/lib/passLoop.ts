/**
 * Runs a pass of work one at a time, on a poll and whenever woken. A wake during a pass is served
 * by one more pass after it (the running one may have read before the caller's commit), shared by
 * every caller of that time. The pass must not reject: it logs its own failures.
 */
export class PassLoop {
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly pass: () => Promise<void>) {}

  /** A first pass now, then one every `pollMs` (for work this process is not told of). */
  start(pollMs: number) {
    this.timer = setInterval(() => void this.wake(), pollMs);
    this.timer.unref();
    void this.wake();
  }

  /** Resolves once a pass that began after this call has ended. */
  wake(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.passes().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** No pass starts from now on; resolves when the one under way ends. */
  async stop() {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  private async passes() {
    do {
      this.again = false;
      await this.pass();
    } while (this.again && !this.stopped);
  }
}
