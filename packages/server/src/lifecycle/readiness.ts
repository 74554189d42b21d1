import { sql } from 'kysely';
import type { Config, Roles } from '../config/types.ts';
import type { Db } from '../db/schema.ts';
import type { Counters } from '../lib/counters.ts';
import type { BlobStore } from '../storage/blobStore.ts';

type Role = keyof Roles;

/** Something a node works with: the database, Redis, the blob store. */
export interface Dependency {
  name: 'database' | 'redis' | 'storage';
  /** Resolves when it answers; rejects with why not. */
  check(): Promise<void>;
}

export interface ReadinessReport {
  /** Whether this node can serve its roles: what a load balancer follows. */
  ready: boolean;
  /** Each role of the node: `ready`, or what it waits for. */
  roles: Partial<Record<Role, string>>;
  /** `ok`, or what went wrong, for each dependency: reported whether or not a role needs it. */
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

/**
 * Whether this node can serve its roles, for `/readyz`; the state of each dependency besides. A
 * dependency every node shares (Redis, the bucket, the database) being away takes no node out
 * of a load balancer by itself: every node would go, and what still works (the sites from their
 * routing table, the API without Redis) with them. What each role needs:
 *
 * - edge: its routing table loaded. It then serves through outages: Redis's (counting in the
 *   process), the database's (from the table and its caches), the store's (files in memory; 503
 *   for the others).
 * - api: the database, which nearly every request reads.
 * - worker: nothing to take traffic (it takes none); its work waits for what it needs.
 *
 * A node with several roles is ready while one that takes traffic (api, edge) is: taking it out
 * would stop that one too. A node with the worker role alone is ready once it runs.
 */
export class Readiness {
  private report: Promise<ReadinessReport> | null = null;
  private reportedAt = 0;

  constructor(
    private readonly roles: Roles,
    private readonly dependencies: Dependency[],
    private readonly edgeLoaded: () => boolean,
  ) {}

  check(): Promise<ReadinessReport> {
    const time = Date.now();
    if (!this.report || time - this.reportedAt > REPORT_FOR_MS) {
      this.reportedAt = time;
      this.report = this.run();
    }
    return this.report;
  }

  /** The same report for Prometheus: each dependency up or not, each role ready or not. */
  async metrics(): Promise<string> {
    const { roles, checks } = await this.check();
    return [
      "# HELP wharf_dependency_up Whether a dependency answered this process's latest check (1) or not (0).",
      '# TYPE wharf_dependency_up gauge',
      ...Object.entries(checks).map(
        ([name, state]) => `wharf_dependency_up{dependency="${name}"} ${+(state === 'ok')}`,
      ),
      '# HELP wharf_role_ready Whether this node can serve a role (1) or not (0), as /readyz says.',
      '# TYPE wharf_role_ready gauge',
      ...Object.entries(roles).map(([role, state]) => `wharf_role_ready{role="${role}"} ${+(state === 'ready')}`),
      '',
    ].join('\n');
  }

  private async run(): Promise<ReadinessReport> {
    const results = await Promise.allSettled(this.dependencies.map((dependency) => withTimeout(dependency.check())));
    const checks: Record<string, string> = {};
    results.forEach((result, index) => {
      checks[this.dependencies[index]!.name] =
        result.status === 'fulfilled' ? 'ok' : String((result.reason as Error)?.message ?? result.reason);
    });
    const roles: ReadinessReport['roles'] = {};
    if (this.roles.api) roles.api = checks.database === 'ok' ? 'ready' : `waiting for the database: ${checks.database}`;
    if (this.roles.edge) roles.edge = this.edgeLoaded() ? 'ready' : 'loading its sites';
    if (this.roles.worker) roles.worker = 'ready';
    const takingTraffic = (['api', 'edge'] as const).filter((role) => this.roles[role]);
    const ready = takingTraffic.length === 0 || takingTraffic.some((role) => roles[role] === 'ready');
    return { ready, roles, checks };
  }
}

/** What a node's `/readyz` reports: its roles, and its database, Redis when it counts there, and its blob store. */
export function nodeReadiness(
  config: Pick<Config, 'roles' | 'redisUrl'>,
  parts: { db: Db; counters: Counters; blobs: BlobStore; edge: { loaded: boolean } },
) {
  const dependencies: Dependency[] = [
    {
      name: 'database',
      check: async () => {
        await sql`select 1`.execute(parts.db);
      },
    },
    ...(config.redisUrl ? [{ name: 'redis' as const, check: () => parts.counters.reachable() }] : []),
    { name: 'storage', check: () => parts.blobs.reachable() },
  ];
  return new Readiness(config.roles, dependencies, () => parts.edge.loaded);
}
