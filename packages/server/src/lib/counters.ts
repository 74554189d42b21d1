import { Redis } from 'ioredis';

/**
 * Counts per key that expire: how many sign-in guesses an address made, how many forms it sent.
 * One process keeps them in memory; several nodes (and a node's cluster workers) share them in
 * Redis, so that spreading attempts over processes gains an attacker nothing.
 */
export interface Counters {
  /**
   * Adds one to a key's count and answers the new count. The count is forgotten `windowMs` after
   * its first addition, or, `sliding`, after its latest.
   */
  add(key: string, windowMs: number, sliding?: boolean): Promise<number>;
  /** The key's count now: 0 once forgotten. */
  read(key: string): Promise<number>;
  clear(key: string): Promise<void>;
  /** Resolves when the counts can be read and written (for /readyz); rejects with why not. */
  reachable(): Promise<void>;
  close(): Promise<void>;
}

/** Keys remembered in memory at most; the ones that expire first go when it is full. */
const MAX_KEYS = 20_000;

export class MemoryCounters implements Counters {
  private readonly counts = new Map<string, { count: number; expiresAt: number }>();

  async add(key: string, windowMs: number, sliding = false) {
    const time = Date.now();
    const current = this.counts.get(key);
    const live = current && current.expiresAt > time ? current : null;
    const next = { count: (live?.count ?? 0) + 1, expiresAt: live && !sliding ? live.expiresAt : time + windowMs };
    this.counts.delete(key);
    this.counts.set(key, next);
    if (this.counts.size > MAX_KEYS) this.prune(time);
    return next.count;
  }

  async read(key: string) {
    const current = this.counts.get(key);
    return current && current.expiresAt > Date.now() ? current.count : 0;
  }

  async clear(key: string) {
    this.counts.delete(key);
  }

  async reachable() {}

  async close() {}

  /** Expired keys go; if that is not enough, the least recently counted. */
  private prune(time: number) {
    for (const [key, value] of this.counts) if (value.expiresAt <= time) this.counts.delete(key);
    for (const key of this.counts.keys()) {
      if (this.counts.size <= MAX_KEYS) return;
      this.counts.delete(key);
    }
  }
}

export class RedisCounters implements Counters {
  constructor(
    private readonly redis: Redis,
    /** Keeps the installation's keys apart from anything else in the same Redis. */
    private readonly prefix: string,
  ) {}

  async add(key: string, windowMs: number, sliding = false) {
    const name = this.prefix + key;
    const [[, count]] = (await this.redis
      .multi()
      .incr(name)
      // NX: the window starts at the first addition; a sliding one moves with each.
      .pexpire(name, windowMs, ...((sliding ? [] : ['NX']) as []))
      .exec()) as [[unknown, number]];
    return count;
  }

  async read(key: string) {
    return Number((await this.redis.get(this.prefix + key)) ?? 0);
  }

  async clear(key: string) {
    await this.redis.del(this.prefix + key);
  }

  async reachable() {
    await this.redis.ping();
  }

  async close() {
    await this.redis.quit().catch(() => undefined);
  }
}

/**
 * Counters of this process: shared in Redis when REDIS_URL is set, else in memory. `namespace`
 * tells installations sharing a Redis apart.
 */
export async function openCounters(redisUrl: string | null, namespace: string): Promise<Counters> {
  if (!redisUrl) return new MemoryCounters();
  // A Redis that is down fails each count at once rather than queueing it: the caller answers 503.
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: true });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw new Error(`Redis at REDIS_URL does not answer: ${(error as Error).message}`);
  }
  return new RedisCounters(redis, `wharf:${namespace}:`);
}
