import type { Counters } from './counters.ts';

/**
 * Counts events per key in a fixed window and tells when a key used its allowance (form
 * submissions per address, sign-in flows started). Passwords use GuessThrottle instead: it slows
 * guesses down without ever refusing the right password. The counts are shared between processes
 * when the counters are (Redis).
 */
export class FailureLimiter {
  constructor(
    private readonly counters: Counters,
    /** What is counted, keeping these keys apart from other limiters'. */
    private readonly name: string,
    private readonly allowance: number,
    private readonly windowMs: number,
  ) {}

  /** Whether the key used up its allowance for the current window. */
  async isBlocked(key: string) {
    return (await this.counters.read(`${this.name}:${key}`)) >= this.allowance;
  }

  async fail(key: string) {
    await this.counters.add(`${this.name}:${key}`, this.windowMs);
  }
}
