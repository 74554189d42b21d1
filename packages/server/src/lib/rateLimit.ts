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

  /** Whether the key used up its failures for the current window. */
  isBlocked(key: string) {
    const window = this.windows.get(key);
    return window !== undefined && window.resetAt > Date.now() && window.failures >= this.allowance;
  }

  /** Throws 429 when the key has no attempts left. */
  check(key: string) {
    if (!this.isBlocked(key)) return;
    const seconds = Math.ceil((this.windows.get(key)!.resetAt - Date.now()) / 1000);
    throw tooManyRequests(`Too many failed attempts; try again in ${seconds} seconds`);
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
