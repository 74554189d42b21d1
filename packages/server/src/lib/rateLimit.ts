/**
 * Counts events per key in a fixed window and tells when a key used its allowance (form
 * submissions per address). Passwords use GuessThrottle instead: it slows guesses down without
 * ever refusing the right password.
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
