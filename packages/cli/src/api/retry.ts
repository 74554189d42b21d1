import type { ErrorCode } from '@wharf/contract';

/** How often a request is tried before the CLI gives up, and how long it first waits. */
export interface RetryPolicy {
  attempts: number;
  firstDelayMs: number;
}

// Six tries over about fifteen seconds: long enough to ride out a server restart or a load
// balancer swapping backends, short enough that a wrong URL fails while the user still waits.
export const defaultRetryPolicy: RetryPolicy = { attempts: 6, firstDelayMs: 500 };

/** Doubles with each attempt; the random half keeps parallel uploads from retrying in lockstep. */
export function retryDelay(policy: RetryPolicy, attempt: number): number {
  const base = policy.firstDelayMs * 2 ** attempt;
  return base / 2 + (Math.random() * base) / 2;
}

/**
 * Answers that say "try again later" rather than "this request is wrong". A full disk stays full
 * for longer than any retry: the user hears it at once. A key in use is an earlier try of the
 * same call that the server is still finishing: the next try gets its answer.
 */
export function isRetryable(status: number, code: ErrorCode | null): boolean {
  if (code === 'DISK_FULL') return false;
  if (code === 'IDEMPOTENCY_KEY_IN_USE') return true;
  return status >= 500 || status === 408 || status === 429;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
