import { describe, expect, it } from 'vitest';
import { RestartBackoff } from './workerPool.ts';

describe('restarting workers that die while starting', () => {
  it('waits longer after each failed start, up to a limit, and starts over once a worker serves', () => {
    const backoff = new RestartBackoff(1_000, 60_000);
    const waits = Array.from({ length: 8 }, () => backoff.failed());
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000]);
    backoff.served();
    expect(backoff.failed()).toBe(1_000);
  });

  it('says starts keep failing after so many in a row, and no longer once a worker serves', () => {
    const backoff = new RestartBackoff(1_000, 60_000, 3);
    backoff.failed();
    backoff.failed();
    expect(backoff.keepsFailing).toBe(false);
    backoff.failed();
    expect(backoff.keepsFailing).toBe(true);
    backoff.served();
    expect(backoff.keepsFailing).toBe(false);
  });
});
