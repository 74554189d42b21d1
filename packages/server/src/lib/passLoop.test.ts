import { describe, expect, it } from 'vitest';
import { PassLoop } from './passLoop.ts';

describe('PassLoop', () => {
  it('runs one pass at a time, and one more for every wake during a pass', async () => {
    let running = 0;
    let most = 0;
    let passes = 0;
    let release: () => void = () => {};
    const loop = new PassLoop(async () => {
      running++;
      most = Math.max(most, running);
      passes++;
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      running--;
    });
    const first = loop.wake();
    // Three callers while the first pass runs: served together by a single pass after it.
    const waiting = [loop.wake(), loop.wake(), loop.wake()];
    release();
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await Promise.all([first, ...waiting]);
    expect({ passes, most }).toEqual({ passes: 2, most: 1 });
  });

  it('starts nothing once stopped', async () => {
    let passes = 0;
    const loop = new PassLoop(async () => {
      passes++;
    });
    await loop.stop();
    await loop.wake();
    expect(passes).toBe(0);
  });
});
