import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { testRedisUrl } from '../../test/harness.ts';
import { type RedisPeer, startRedisPeer } from '../../test/redisPeer.ts';
import { type Counters, MemoryCounters, openCounters } from './counters.ts';
import type { OutageLogger } from './outage.ts';
import { FailureLimiter } from './rateLimit.ts';

/** What the counters say of Redis's outages, kept for the tests to read. */
const logged: string[] = [];
const log = {
  error: (_: unknown, message: string) => void logged.push(message),
  warn: (_: unknown, message: string) => void logged.push(message),
  info: (_: unknown, message: string) => void logged.push(message),
} as unknown as OutageLogger;

if (!testRedisUrl) console.warn('!! WHARF_TEST_REDIS_URL is not set: the Redis counters are SKIPPED');

const kinds: { name: string; open(namespace: string): Promise<Counters> }[] = [
  { name: 'in memory', open: async () => new MemoryCounters() },
  ...(testRedisUrl
    ? [{ name: 'in Redis', open: (namespace: string) => openCounters(testRedisUrl, namespace, log) }]
    : []),
];

describe.each(kinds)('counters $name', ({ open }) => {
  const opened: Counters[] = [];
  const counters = async () => {
    const made = await open(`test-${randomBytes(6).toString('hex')}`);
    opened.push(made);
    return made;
  };
  afterAll(async () => {
    await Promise.all(opened.map((made) => made.close()));
  });

  // The windows are long enough for two calls in a row on a busy machine to fall in one: what
  // distinguishes a window from its first addition from a sliding one is a second addition asking
  // for a much longer window, not a race between sleeps and the window's end.
  const WINDOW_MS = 2_000;

  it('counts within a window that starts at the first addition, then forgets', async () => {
    const counts = await counters();
    const firstAddedBefore = Date.now();
    expect(await counts.add('a', WINDOW_MS)).toBe(1);
    // A window that moved with this addition would keep the count a minute.
    expect(await counts.add('a', 60_000)).toBe(2);
    expect(await counts.read('a')).toBe(2);
    const forgotten = await vi.waitFor(
      async () => {
        expect(await counts.read('a')).toBe(0);
        return Date.now();
      },
      { timeout: 20_000, interval: 50 },
    );
    expect(forgotten).toBeGreaterThanOrEqual(firstAddedBefore + WINDOW_MS);
    expect(await counts.read('never')).toBe(0);
  });

  it('keeps a sliding count as long as additions keep coming, and clears on request', async () => {
    const counts = await counters();
    await counts.add('b', WINDOW_MS, true);
    const firstAddedAfter = Date.now();
    expect(await counts.add('b', 60_000, true)).toBe(2);
    // Once the first addition's window is over, the second one's still holds the count.
    await sleep(firstAddedAfter + WINDOW_MS + 100 - Date.now());
    expect(await counts.read('b')).toBe(2);
    await counts.clear('b');
    expect(await counts.read('b')).toBe(0);
    await expect(counts.reachable()).resolves.toBeUndefined();
  });
});

describe.skipIf(!testRedisUrl)('counters shared in Redis', () => {
  it('lets two processes of one installation count together, and keeps installations apart', async () => {
    const namespace = `shared-${randomBytes(6).toString('hex')}`;
    const [one, two, other] = await Promise.all([
      openCounters(testRedisUrl, namespace, log),
      openCounters(testRedisUrl, namespace, log),
      openCounters(testRedisUrl, `${namespace}-other`, log),
    ]);
    try {
      const limitOne = new FailureLimiter(one, 'forms', 3, 60_000);
      const limitTwo = new FailureLimiter(two, 'forms', 3, 60_000);
      await limitOne.fail('192.0.2.7');
      await limitTwo.fail('192.0.2.7');
      expect(await limitOne.isBlocked('192.0.2.7')).toBe(false);
      await limitOne.fail('192.0.2.7');
      // Three from two processes: the address is refused by both.
      expect(await limitTwo.isBlocked('192.0.2.7')).toBe(true);
      expect(await new FailureLimiter(other, 'forms', 3, 60_000).isBlocked('192.0.2.7')).toBe(false);
    } finally {
      await Promise.all([one.close(), two.close(), other.close()]);
    }
  });

  it('starts when Redis does not answer, counting in the process, and says so', async () => {
    const counts = await openCounters('redis://127.0.0.1:9', 'nowhere', log);
    try {
      expect(await counts.add('a', 60_000)).toBe(1);
      expect(await counts.read('a')).toBe(1);
      await expect(counts.reachable()).rejects.toThrow();
    } finally {
      await counts.close();
    }
  });
});

describe.skipIf(!testRedisUrl)('counters when Redis goes away', () => {
  let redis: RedisPeer;
  const opened: Counters[] = [];
  const counters = async (namespace: string) => {
    const made = await openCounters(redis.url, namespace, log);
    opened.push(made);
    return made;
  };
  afterAll(async () => {
    await Promise.all(opened.map((made) => made.close()));
    await redis?.close();
  });

  /** Two processes' counters of one installation, and a count each adds to the same key. */
  async function twoProcesses() {
    const namespace = `outage-${randomBytes(6).toString('hex')}`;
    const [one, two] = await Promise.all([counters(namespace), counters(namespace)]);
    return { one, two, addBoth: async (key: string) => [await one.add(key, 60_000), await two.add(key, 60_000)] };
  }

  it.each([
    ['hangs (stopped)', () => redis.pause(), () => redis.resume()],
    ['is down (killed, then started again empty)', () => redis.stop(), () => redis.start()],
  ])(
    'counts in each process while Redis %s, never failing a count, then shares counts again',
    async (_, outage, back) => {
      redis ??= await startRedisPeer();
      const { one, two, addBoth } = await twoProcesses();
      expect(await addBoth('shared')).toEqual([1, 2]);
      logged.length = 0;
      await outage();
      try {
        const startedAt = performance.now();
        // Each process counts on its own: 1 and 1, not 3 and 4, and within about a second.
        expect(await addBoth('during')).toEqual([1, 1]);
        expect(await one.add('during', 60_000)).toBe(2);
        expect(performance.now() - startedAt).toBeLessThan(5_000);
        await expect(one.reachable()).rejects.toThrow();
      } finally {
        await back();
      }
      await vi.waitFor(
        async () => {
          await one.reachable();
          await two.reachable();
        },
        { timeout: 15_000, interval: 200 },
      );
      // Shared again: a new key counts across both processes.
      expect(await addBoth('after')).toEqual([1, 2]);
      // What the outage counted here still holds the key back on this process.
      expect(await one.read('during')).toBeGreaterThanOrEqual(2);
      // One line each process when it went away, one when it came back: not one a count.
      expect(logged.filter((line) => line.startsWith('Redis does not answer'))).toHaveLength(2);
      expect(logged.filter((line) => line === 'Redis answers again')).toHaveLength(2);
    },
  );
});
