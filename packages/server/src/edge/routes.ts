import { createHash, timingSafeEqual } from 'node:crypto';
import { api } from '@wharf/contract';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { feature } from '../features/feature.ts';
import type { PartsOf } from '../features/parts.ts';
import { httpError } from '../http/errors.ts';
import { pageViewMetrics } from '../modules/analytics/index.ts';
import type { SiteMetrics } from './metrics.ts';
import { trafficByHour, trafficSummary } from './traffic/read.ts';
import type { TrafficTally } from './traffic/tally.ts';
import { trafficChore } from './traffic/upkeep.ts';
import { flushTraffic } from './traffic/write.ts';

const FLUSH_EVERY_MS = 60_000;

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Whether a request carries the metrics token. The peer's address proves nothing: a worker hands
 * requests over a local socket, and a reverse-proxy rule or a proxy in front makes any visitor
 * look local. Without a token configured, no one may read metrics (they name every site).
 */
function carriesMetricsToken(token: string | null, authorization: string | undefined) {
  if (!token || !authorization) return false;
  return timingSafeEqual(digest(authorization), digest(`Bearer ${token}`));
}

/** A value read from the database, answered as last read (or `initial`) while the database is away. */
class LastRead<T> {
  constructor(
    private readonly readNow: () => Promise<T>,
    private last: T,
  ) {}

  async read(): Promise<T> {
    try {
      this.last = await this.readNow();
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
    }
    return this.last;
  }
}

const needs = ['access', 'config', 'db', 'fastify', 'handle', 'housekeeping', 'lifecycle', 'log', 'metrics'] as const;

/** What the edge of this process counted: totals since start (/metrics), traffic not written yet. */
interface Counted {
  metrics: SiteMetrics;
  traffic: TrafficTally;
}

/**
 * The edge's figures: metrics for Prometheus (with the node's own) and each site's traffic (flushed
 * every minute). `keepsTotals`: this process holds the node's per-site counts and writes them; a
 * cluster worker hands its counts to the primary every second instead (and its requests for these
 * routes too), so that no count is written twice or missing from the totals.
 */
function edgeRoutes(parts: PartsOf<(typeof needs)[number]>, counted: Counted, keepsTotals: boolean) {
  const { db, fastify, config } = parts;
  const flush = () => flushTraffic(db, counted.traffic);
  // An operator looks at metrics most while the database is away: what they read from it is
  // answered as last read then, and the dependencies' own series say the database is down.
  const siteNames = new LastRead(
    async () => new Map((await db.selectFrom('sites').select(['id', 'name']).execute()).map((s) => [s.id, s.name])),
    new Map<string, string>(),
  );
  const pageViews = new LastRead(() => pageViewMetrics(db), '');
  if (keepsTotals) {
    const timer = setInterval(
      () => void flush().catch((err) => parts.log.error({ err }, 'traffic flush failed')),
      FLUSH_EVERY_MS,
    );
    timer.unref();
    fastify.addHook('onClose', async () => {
      clearInterval(timer);
      // Stopping while the database is away: the last minute's counts are lost, not the clean stop.
      await flush().catch((err) => parts.log.error({ err }, 'traffic flush failed'));
    });
  }

  fastify.get('/metrics', async (request, reply) => {
    if (!carriesMetricsToken(config.metricsToken, request.headers.authorization))
      throw httpError(
        'METRICS_TOKEN_REQUIRED',
        'Metrics need the token the server sets in WHARF_METRICS_TOKEN, sent as Authorization: Bearer <token>',
      );
    // This node's dependencies and roles, as /readyz reports them.
    const dependencies = (await parts.lifecycle.readiness?.metrics()) ?? '';
    // The node's requests, deploys, certificates, queue and processes (its workers' added in),
    // first: asking the workers for theirs also brings in the sites' counts they hold.
    const node = await parts.metrics.prometheus();
    const names = await siteNames.read();
    const sites = counted.metrics.prometheus((id) => names.get(id));
    return reply.type('text/plain; version=0.0.4').send(`${dependencies}${sites}${await pageViews.read()}\n${node}`);
  });

  // Each reads what was counted until now: written first, so a visit shows at once.
  parts.handle(api.getSiteTraffic, parts.access.siteViewer, async ({ site, query }) => {
    await flush();
    return trafficByHour(db, site.id, query.hours, query.branch);
  });
  parts.handle(api.getSiteTrafficSummary, parts.access.siteViewer, async ({ site, query }) => {
    await flush();
    const summary = await trafficSummary(db, site.id, query.days, query.branch);
    return { ...summary, retentionDays: config.trafficRetentionDays };
  });
}

/** The edge's figures as API routes: the edge's own metrics, counted by the edge this node built. */
export const edgeFeature = (counted: Counted, { keepsTotals }: { keepsTotals: boolean }) =>
  feature({
    name: 'edge',
    needs,
    routes: (parts) => edgeRoutes(parts, counted, keepsTotals),
    work: (parts) => parts.housekeeping.add(trafficChore(parts.db, parts.config.trafficRetentionDays)),
  });
