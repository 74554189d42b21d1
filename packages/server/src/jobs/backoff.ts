/** Tries in all: the first and five retries, some 30 s, 1.5 min, 4.5 min, 13.5 min and 40 min apart (about an hour). */
export const MAX_ATTEMPTS = 6;
const FIRST_DELAY_MS = 30_000;
const GROWTH = 3;
/** A receiver's Retry-After is honoured within these bounds: a second at least, an hour at most. */
const MIN_RETRY_AFTER_MS = 1_000;
const MAX_RETRY_AFTER_MS = 3_600_000;

/**
 * How long to wait after failed attempt number `attempt` (from 1): exponential, with ±20 % jitter
 * so the retries of many deliveries that failed together (a receiver down) do not return together.
 * A `Retry-After` the receiver sent wins, within bounds.
 */
export function retryDelay(attempt: number, retryAfterMs?: number | null, random = Math.random): number {
  if (retryAfterMs !== undefined && retryAfterMs !== null)
    return Math.min(MAX_RETRY_AFTER_MS, Math.max(MIN_RETRY_AFTER_MS, retryAfterMs));
  const base = FIRST_DELAY_MS * GROWTH ** (attempt - 1);
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** A Retry-After header in milliseconds (seconds or an HTTP date), or null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}
