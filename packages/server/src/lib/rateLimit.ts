import { tooManyRequests } from '../http/errors.ts';

/** Counts attempts per key in a fixed window; refuses with 429 once a key used its allowance. */
export class RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  take(key: string) {
    const time = Date.now();
    if (this.windows.size > 10_000) this.prune(time);
    const window = this.windows.get(key);
    if (!window || window.resetAt <= time) {
      this.windows.set(key, { count: 1, resetAt: time + this.windowMs });
      return;
    }
    window.count += 1;
    if (window.count > this.limit) {
      const seconds = Math.ceil((window.resetAt - time) / 1000);
      throw tooManyRequests(`Too many attempts; try again in ${seconds} seconds`);
    }
  }

  private prune(time: number) {
    for (const [key, window] of this.windows) if (window.resetAt <= time) this.windows.delete(key);
  }
}
