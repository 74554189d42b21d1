import { sql } from 'kysely';
import type { Db } from '../db/schema.ts';
import type { Counters } from '../lib/counters.ts';
import type { BlobStore } from '../storage/blobStore.ts';

/** Something a node needs to serve: the database, Redis, the blob store. */
export interface Dependency {
  name: 'database' | 'redis' | 'storage';
  /** Resolves when it answers; rejects with why not. */
  check(): Promise<void>;
}

export interface ReadinessReport {
  ready: boolean;
  /** `ok`, or what went wrong, for each dependency. */
  checks: Record<string, string>;
}

/** A dependency that has not answered in this long counts as down. */
const CHECK_TIMEOUT_MS = 2_000;
/** A load balancer asks every second or so: one round of checks serves all asks for this long. */
const REPORT_FOR_MS = 1_000;

const withTimeout = (check: Promise<void>) =>
  Promise.race([
    check,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('no answer within 2 s')), CHECK_TIMEOUT_MS).unref(),
    ),
  ]);

/** Whether the node's dependencies answer, for `/readyz`: a node that cannot reach them should get no traffic. */
export class Readiness {
  private report: Promise<ReadinessReport> | null = null;
  private reportedAt = 0;

  constructor(private readonly dependencies: Dependency[]) {}

  check(): Promise<ReadinessReport> {
    const time = Date.now();
    if (!this.report || time - this.reportedAt > REPORT_FOR_MS) {
      this.reportedAt = time;
      this.report = this.run();
    }
    return this.report;
  }

  private async run(): Promise<ReadinessReport> {
    const results = await Promise.allSettled(this.dependencies.map((dependency) => withTimeout(dependency.check())));
    const checks: Record<string, string> = {};
    results.forEach((result, index) => {
      checks[this.dependencies[index]!.name] =
        result.status === 'fulfilled' ? 'ok' : String((result.reason as Error)?.message ?? result.reason);
    });
    return { ready: results.every((result) => result.status === 'fulfilled'), checks };
  }
}

/** What a node's `/readyz` checks: its database, Redis when it counts there, and its blob store. */
export function nodeReadiness(parts: { db: Db; counters: Counters; blobs: BlobStore; redis: boolean }) {
  return new Readiness([
    {
      name: 'database',
      check: async () => {
        await sql`select 1`.execute(parts.db);
      },
    },
    ...(parts.redis ? [{ name: 'redis' as const, check: () => parts.counters.reachable() }] : []),
    { name: 'storage', check: () => parts.blobs.reachable() },
  ]);
}
