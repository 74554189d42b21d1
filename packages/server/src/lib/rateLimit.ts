import { tooManyRequests } from '../http/errors.ts';

/**
 * Counts failures per key in a fixed window and refuses further attempts with 429 once a key
 * used its allowance; successes cost nothing, so people who know their password are never slowed.
 */
export class FailureLimiter {
  private readonly windows = new Map<string, { failures: number; resetAt: number }>();

  constructor(
    private readonly allowance: number,
    private readonly windowMs: number,
  ) {}

  /** Throws 429 when the key has no attempts left. */
  check(key: string) {
    const window = this.windows.get(key);
    if (!window || window.resetAt <= Date.now()) return;
    if (window.failures >= this.allowance) {
      const seconds = Math.ceil((window.resetAt - Date.now()) / 1000);
      throw tooManyRequests(`Too many failed attempts; try again in ${seconds} seconds`);
    }
  }

  fail(key: string) {
    const time = Date.now();
    if (this.windows.size > 10_000) this.prune(time);
    const window = this.windows.get(key);
    if (!window || window.resetAt <= time) this.windows.set(key, { failures: 1, resetAt: time + this.windowMs });
    else window.failures += 1;
  }

  private prune(time: number) {
    for (const [key, window] of this.windows) if (window.resetAt <= time) this.windows.delete(key);
  }
}
