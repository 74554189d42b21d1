import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { testRedisUrl } from '../../test/harness.ts';
import { type Counters, MemoryCounters, openCounters } from './counters.ts';
import { FailureLimiter } from './rateLimit.ts';

if (!testRedisUrl) console.warn('!! WHARF_TEST_REDIS_URL is not set: the Redis counters are SKIPPED');

const kinds: { name: string; open(namespace: string): Promise<Counters> }[] = [
  { name: 'in memory', open: async () => new MemoryCounters() },
  ...(testRedisUrl ? [{ name: 'in Redis', open: (namespace: string) => openCounters(testRedisUrl, namespace) }] : []),
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

  it('counts within a window that starts at the first addition, then forgets', async () => {
    const counts = await counters();
    expect(await counts.add('a', 300)).toBe(1);
    await sleep(150);
    expect(await counts.add('a', 300)).toBe(2);
    expect(await counts.read('a')).toBe(2);
    await sleep(200);
    expect(await counts.read('a')).toBe(0);
    expect(await counts.read('never')).toBe(0);
  });

  it('keeps a sliding count as long as additions keep coming, and clears on request', async () => {
    const counts = await counters();
    await counts.add('b', 300, true);
    await sleep(200);
    await counts.add('b', 300, true);
    await sleep(200);
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
      openCounters(testRedisUrl, namespace),
      openCounters(testRedisUrl, namespace),
      openCounters(testRedisUrl, `${namespace}-other`),
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

  it('says so when Redis does not answer', async () => {
    await expect(openCounters('redis://127.0.0.1:9', 'nowhere')).rejects.toThrow();
  });
});
