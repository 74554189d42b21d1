import { Redis } from 'ioredis';
import { Outage, type OutageLogger } from './outage.ts';

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

/** How long a Redis command may take: one that hangs (a stopped or overloaded Redis) fails within it. */
const COMMAND_TIMEOUT_MS = 1_000;
/** While Redis is away, it is asked this often whether it is back. */
const PROBE_EVERY_MS = 1_000;

/**
 * Counts shared in Redis by every process of the installation. While Redis is away (down,
 * restarting, not answering within COMMAND_TIMEOUT_MS) this process counts on its own, in memory,
 * rather than fail the sign-in or the form post that counts; the outage is logged once. Once Redis
 * answers again the counts are shared again; a count the outage left here still holds its key
 * back until its window ends, so the outage gained a guesser nothing on this process.
 */
export class RedisCounters implements Counters {
  private readonly local = new MemoryCounters();
  private readonly outage: Outage;
  private probe: NodeJS.Timeout | undefined;

  constructor(
    private readonly redis: Redis,
    /** Keeps the installation's keys apart from anything else in the same Redis. */
    private readonly prefix: string,
    log: OutageLogger,
  ) {
    this.outage = new Outage(log, 'Redis', 'counting sign-in guesses and form posts in this process until it answers');
    // ioredis reconnects by itself; its next connection may end the outage before the next probe.
    redis.on('ready', () => void this.checkBack());
  }

  add(key: string, windowMs: number, sliding = false) {
    return this.either(
      async () => {
        const name = this.prefix + key;
        const [[, count]] = (await this.redis
          .multi()
          .incr(name)
          // NX: the window starts at the first addition; a sliding one moves with each.
          .pexpire(name, windowMs, ...((sliding ? [] : ['NX']) as []))
          .exec()) as [[unknown, number]];
        return Math.max(count, await this.local.read(key));
      },
      () => this.local.add(key, windowMs, sliding),
    );
  }

  read(key: string) {
    return this.either(
      async () => Math.max(Number((await this.redis.get(this.prefix + key)) ?? 0), await this.local.read(key)),
      () => this.local.read(key),
    );
  }

  async clear(key: string) {
    await this.local.clear(key);
    await this.either(
      async () => void (await this.redis.del(this.prefix + key)),
      async () => undefined,
    );
  }

  /** Whether counts are shared now; rejects with why not (for /readyz's report). Ends an outage when Redis answers. */
  async reachable() {
    try {
      await this.redis.ping();
    } catch (error) {
      this.wentAway(error);
      throw error;
    }
    clearInterval(this.probe);
    this.probe = undefined;
    this.outage.answered();
  }

  async close() {
    clearInterval(this.probe);
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  /** Counts in Redis, or here while it is away: a failure of Redis never fails the request that counts. */
  private async either<T>(inRedis: () => Promise<T>, here: () => Promise<T>): Promise<T> {
    if (this.outage.away) return here();
    try {
      return await inRedis();
    } catch (error) {
      this.wentAway(error);
      return here();
    }
  }

  /** Called when a connection attempt at start fails too: the process starts, counting here. */
  wentAway(error: unknown) {
    this.outage.failed(error);
    this.probe ??= setInterval(() => void this.checkBack(), PROBE_EVERY_MS).unref();
  }

  private async checkBack() {
    if (this.outage.away) await this.reachable().catch(() => undefined);
  }
}

/**
 * Counters of this process: shared in Redis when REDIS_URL is set, else in memory. `namespace`
 * tells installations sharing a Redis apart. A Redis that does not answer at start does not keep
 * the process from starting: it counts on its own until Redis answers (see RedisCounters).
 */
export async function openCounters(redisUrl: string | null, namespace: string, log: OutageLogger): Promise<Counters> {
  if (!redisUrl) return new MemoryCounters();
  const redis = new Redis(redisUrl, {
    lazyConnect: true,
    // Each command fails at once while there is no connection, or when the one it was sent on
    // drops, rather than wait in a queue: the counters then count here.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: 2_000,
    // Tried again at least once a second, as the database is: counts are shared again soon after
    // Redis's return (ioredis's own back-off grows to 2 s).
    retryStrategy: (tries) => Math.min(tries * 50, 1_000),
  });
  // Failures reach the commands that meet them; the connection's own come here, and ioredis reconnects.
  redis.on('error', () => undefined);
  const counters = new RedisCounters(redis, `wharf:${namespace}:`, log);
  await redis.connect().catch((error: unknown) => counters.wentAway(error));
  return counters;
}
