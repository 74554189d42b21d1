import { setTimeout as sleep } from 'node:timers/promises';
import { isDatabaseUnavailable } from './unavailable.ts';

const RETRY_EVERY_MS = 1_000;

interface WriteLog {
  warn(details: Record<string, unknown>, message: string): void;
  error(details: Record<string, unknown>, message: string): void;
}

/**
 * A write that an outage must not lose (an Idempotency-Key let go, the answer kept for its
 * retries): tried now, and while the database is away, again every second in the background
 * until it is back. Resolves after the first try; a failure not the database's is thrown.
 */
export async function writeThroughOutage(write: () => Promise<unknown>, log: WriteLog, what: string) {
  try {
    await write();
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    log.warn({ err: error }, `${what}: the database is away, trying again until it is back`);
    void writeOnceBack(write, log, what);
  }
}

async function writeOnceBack(write: () => Promise<unknown>, log: WriteLog, what: string) {
  for (;;) {
    // The process may stop meanwhile: what is left then is what a crash would leave.
    await sleep(RETRY_EVERY_MS, undefined, { ref: false });
    try {
      await write();
      return;
    } catch (error) {
      if (isDatabaseUnavailable(error)) continue;
      log.error({ err: error }, `${what} failed`);
      return;
    }
  }
}
