import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import Fastify from 'fastify';
import { accessGuards } from './access/guards.ts';
import { Housekeeping } from './cluster/housekeeping.ts';
import { joinNodes } from './cluster/nodes.ts';
import type { Config } from './config/types.ts';
import { serveConsole } from './console/serveConsole.ts';
import { type CommitSignal, listenForCommits } from './db/commitSignals.ts';
import { openDb } from './db/connection.ts';
import { migrate } from './db/migrate.ts';
import { Edge } from './edge/edge.ts';
import { PrimaryForwarder, servedByPrimary } from './edge/forwardToPrimary.ts';
import { edgeFeature } from './edge/routes.ts';
import { Dispatcher } from './events/dispatcher.ts';
import { registerFeatures } from './features/feature.ts';
import type { Parts } from './features/parts.ts';
import { FEATURES } from './features.ts';
import { answerClientError } from './http/clientErrors.ts';
import { answerFrameworkError, installErrorHandler, installNotFoundHandler } from './http/errorHandler.ts';
import { bindRoute } from './http/handle.ts';
import { createHttpServer } from './http/httpServer.ts';
import { idempotencyKeysChore } from './http/idempotency.ts';
import { installJsonBodies } from './http/jsonBody.ts';
import { misdirected, servedByEveryNode } from './http/misdirected.ts';
import { OneLinePerRequest } from './http/requestLog.ts';
import { refuseCrossOriginMutations } from './http/sameOrigin.ts';
import { installSecurityHeaders } from './http/securityHeaders.ts';
import { checkUrlTextOfOtherRoutes } from './http/textRule.ts';
import { trustClusterWorkers } from './http/trustProxy.ts';
import { zodSerializerCompiler, zodValidatorCompiler } from './http/validation.ts';
import { finishedJobsChore } from './jobs/prune.ts';
import { registerQueueMetrics } from './jobs/queueMetrics.ts';
import { JobRunner } from './jobs/runner.ts';
import { openCounters } from './lib/counters.ts';
import { installationTag, mustMatchInstallationSecret } from './lib/secretCheck.ts';
import { resolveSecret, Sealer } from './lib/secrets.ts';
import { answerHealth } from './lifecycle/health.ts';
import { Lifecycle } from './lifecycle/lifecycle.ts';
import { nodeReadiness } from './lifecycle/readiness.ts';
import { logDestination } from './logging.ts';
import { mailerFor } from './mail/mailer.ts';
import { NodeMetrics } from './metrics/nodeMetrics.ts';
import { siteRequestTimer, timeApiRequests } from './metrics/requestDurations.ts';
import { DeployMetrics } from './modules/releases/deployMetrics.ts';
import { OutboundGuard } from './outbound/guard.ts';
import type { PrimaryLink } from './primaryLink.ts';
import { openBlobStore } from './storage/openBlobStore.ts';
import { scheduleRenewals } from './tls/acme/start.ts';
import { registerCertificateMetrics } from './tls/certificateMetrics.ts';
import { createTlsFront, httpsListener, setHsts } from './tls/https.ts';
import { httpChallengesFor, startTlsSources, withAcmeChallenges } from './tls/sources.ts';

export interface BuildOptions {
  /** PostgreSQL schema to use (tests isolate each run in its own). */
  dbSchema?: string;
  logger?: boolean;
  /** Where logs go instead of standard output (tests read them). */
  logStream?: { write(line: string): void };
  /** Run the housekeeping chores (retention, collection, pruning) now and every few minutes (default true). */
  housekeeping?: boolean;
  /** Serve the built console at `/` (default true). */
  serveConsole?: boolean;
  /** Where the built console is (default: the web package's dist folder). */
  consoleDir?: string;
  /** A process of a cluster (cluster.ts); a process alone serves everything by itself. */
  cluster?: ClusterPrimary | ClusterWorker;
}

/**
 * The cluster's primary: it takes no connection of its own, only the node-wide requests its workers
 * hand over on a local socket (`servedByPrimary`), and runs the node's start-up and background work.
 */
export interface ClusterPrimary {
  role: 'primary';
  /** Another node's commit was signalled (PostgreSQL): the workers follow it too. */
  onCommitSignal(signal: CommitSignal): void;
}

/** A cluster worker: it serves every other request itself, and asks its primary what the node shares. */
export interface ClusterWorker {
  role: 'worker';
  link: PrimaryLink;
  /** The node its primary joined: the worker's work is the node's. */
  node: Parts['node'];
  /** Where the primary takes the node-wide requests. */
  primarySocket: string;
}

/** How long an answer waits for its change to reach the edges (a stuck worker must not hold the API). */
const SETTLE_TIMEOUT_MS = 5_000;

/** A built node: the parts its features share, and the edge the process serves sites with. */
export interface BuiltApp {
  app: Parts;
  edge: Edge;
}

/** Builds a ready-to-listen Wharf from its configuration; nothing global, so tests run many side by side. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<BuiltApp> {
  let edge: Edge | undefined;
  const primary = options.cluster?.role === 'primary' ? options.cluster : null;
  const worker = options.cluster?.role === 'worker' ? options.cluster : null;
  const lifecycle = new Lifecycle();
  const metrics = new NodeMetrics();
  const db = openDb({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    schema: options.dbSchema,
    // SQLite's checkpoints run in one thread per node, beside the connections that answer requests.
    checkpoints: worker ? 'elsewhere' : 'thread',
    applicationName: worker ? 'wharf worker' : 'wharf',
  });
  const challenges = httpChallengesFor(config, db);
  const logStream = options.logger === false ? undefined : (options.logStream ?? logDestination());
  // A worker hands the few requests whose answer is the whole node's (its metrics) to the primary.
  let forwarder: PrimaryForwarder | null = null;
  // The primary's requests come from its workers: they redirect and add HSTS.
  const https = primary ? null : config.https;
  const fastify = Fastify({
    // One port for everything: requests for a site's host go to the edge, the rest to the API.
    serverFactory: (handler) => {
      const server = createHttpServer(
        lifecycle.requestListener(
          httpsListener(
            https,
            // ACME's HTTP-01 requests come to plain HTTP; in a cluster the workers take them.
            withAcmeChallenges(primary ? null : challenges, (req, res) => {
              if (edge?.handles(req)) {
                if (config.roles.edge) return edge.handle(req, res);
                setHsts(https, req, res);
                misdirected(res, 'sites');
                return;
              }
              setHsts(https, req, res);
              if (answerHealth(req, res, lifecycle)) return;
              else if (forwarder && servedByPrimary(req)) forwarder.request(req, res);
              else if (config.roles.api || servedByEveryNode(req)) handler(req, res);
              else misdirected(res, 'the console and the API');
            }),
          ),
        ),
      );
      lifecycle.adopt(server);
      return server;
    },
    logger: options.logger === false ? false : { level: config.logLevel, ...(logStream ? { stream: logStream } : {}) },
    logController: new OneLinePerRequest(),
    // request.ip (request logs, sign-in delays) follows the rule the edge and the workers follow.
    trustProxy: primary ? trustClusterWorkers : config.trustProxy,
    bodyLimit: 2 * 1024 * 1024,
    // The server answers what its parser refuses (createHttpServer); Fastify's own answer would come second.
    clientErrorHandler: answerClientError,
    routerOptions: { maxParamLength: 500 },
    // Every failure a client can get carries a code of the contract, those of Fastify's router too.
    frameworkErrors: answerFrameworkError,
  });
  // However the app is closed (a drain first, or only close() as tests do), connections whose
  // answers end from then on close after them rather than stay open for their keep-alive time.
  fastify.addHook('preClose', async () => lifecycle.startDraining());
  fastify.setValidatorCompiler(zodValidatorCompiler);
  fastify.setSerializerCompiler(zodSerializerCompiler);
  installErrorHandler(fastify);
  timeApiRequests(fastify, metrics);
  installJsonBodies(fastify);
  checkUrlTextOfOtherRoutes(fastify);
  installNotFoundHandler(
    fastify,
    options.serveConsole === false ? undefined : serveConsole(fastify, options.consoleDir),
  );
  installSecurityHeaders(fastify, config);
  await fastify.register(cookie);
  await fastify.register(multipart, { limits: { fields: 20, fieldSize: 64 * 1024 } });
  refuseCrossOriginMutations(fastify, config.url.origin);

  const secret = resolveSecret(config.secret, config.dataDir);
  const sealer = new Sealer(secret);
  // HTTPS beside HTTP in a single process; in a cluster the workers serve it (the primary takes no connection).
  const tls = config.https && !primary ? createTlsFront(config.https, secret, fastify.server, fastify.log) : null;
  if (tls) {
    lifecycle.adopt(tls);
    registerCertificateMetrics(metrics.registry, tls.certificates);
    fastify.addHook('onClose', async () => {
      tls.close();
      tls.closeAllConnections();
    });
  }
  // A worker starts once its primary has migrated the database and joined the node.
  if (!worker) await migrate(db, () => sealer);
  fastify.addHook('onClose', () => db.destroy());
  const node: Parts['node'] & { leave?: () => Promise<void> } = await mustMatchInstallationSecret(db, secret)
    .then(() => worker?.node ?? joinNodes(db, config, { schema: options.dbSchema, log: fastify.log }))
    .catch(async (error: unknown) => {
      await fastify.close();
      throw error;
    });
  // Before onClose, where the database closes.
  const { leave } = node;
  if (leave) fastify.addHook('preClose', leave);
  if (worker) {
    forwarder = new PrimaryForwarder(worker.primarySocket, config.trustProxy, fastify.log);
    fastify.addHook('onClose', async () => forwarder?.close());
  }

  const blobs = openBlobStore(config, fastify.log);
  // Without Redis a worker's counts are the node's, kept by its primary.
  const counters =
    worker && !config.redisUrl
      ? worker.link.counters()
      : await openCounters(config.redisUrl, installationTag(secret), fastify.log);
  fastify.addHook('onClose', () => counters.close());
  const outbound = new OutboundGuard({
    allowPrivate: config.allowPrivateUpstreams,
    allowList: config.proxyAllowedPrivate,
    extraCaCerts: config.extraCaCerts,
    log: fastify.log,
  });
  const hookOutbound = new OutboundGuard({
    allowPrivate: config.allowPrivateUpstreams,
    allowList: config.hooksAllowedPrivate,
    extraCaCerts: config.extraCaCerts,
    log: fastify.log,
  });
  fastify.addHook('onClose', async () => {
    outbound.close();
    hookOutbound.close();
  });
  const dispatcher = new Dispatcher(db, fastify.log);
  const jobs = new JobRunner(db, fastify.log);
  // The primary sends the node's jobs: a worker that queued one tells it.
  if (worker) jobs.relayWakesTo(() => worker.link.committed('jobs'));
  const housekeeping = new Housekeeping(db, fastify.log);
  housekeeping.add(idempotencyKeysChore(db));
  housekeeping.add(finishedJobsChore(db, fastify.log));
  edge = new Edge(db, config, {
    blobs,
    outbound,
    counters,
    log: fastify.log,
    sealer,
    timeRequest: siteRequestTimer(metrics),
    // A form's submission: its event for the dispatcher, its mail for the job runner.
    afterCommit: () => {
      void dispatcher.wake();
      void jobs.wake();
      worker?.link.committed('events');
    },
  });
  lifecycle.readiness = nodeReadiness(config, { db, counters, blobs, edge });
  const acme = startTlsSources(config, { db, sealer, secret, tls, hosts: edge.table, challenges, log: fastify.log });
  // Renewals run here, in a single process or a cluster's primary; the workers order only on demand.
  if (acme && config.roles.worker && !worker) {
    const stopRenewals = scheduleRenewals(acme, db, fastify.log);
    fastify.addHook('onClose', async () => stopRenewals());
  }
  // The primary takes no site requests: its workers hold the routing tables.
  if (primary) edge.leaveSitesToPeers();
  // The outbox's end is read before the routing table loads, so no change falls in between.
  await dispatcher.markStart();
  // A node without the edge role keeps no routing table: the sites are served elsewhere.
  if (config.roles.edge) {
    await edge.load();
    dispatcher.addLive({ name: 'edge', consume: (events) => (edge as Edge).applyEvents(events) });
  }
  dispatcher.onDurableWork(() => void jobs.wake());
  // Other nodes' commits wake this one at once (PostgreSQL); the pollers remain for a lost signal.
  // A cluster's primary listens for its workers too, and tells them.
  if (config.databaseUrl && !worker) {
    const stopListening = listenForCommits(
      { databaseUrl: config.databaseUrl, schema: options.dbSchema },
      (signal) => {
        void (signal === 'jobs' ? jobs.wake() : dispatcher.wake());
        primary?.onCommitSignal(signal);
      },
      fastify.log,
    );
    fastify.addHook('onClose', stopListening);
  }
  // The queue is the node's: counted once, where it is sent (a worker's figures are added to the primary's).
  if (!worker) registerQueueMetrics(metrics.registry, db);
  const mailer = mailerFor(config);
  // Stopping: no new passes, then the sends under way finish (each within its 10 s timeout).
  fastify.addHook('onClose', async () => {
    await dispatcher.close();
    await jobs.close();
    mailer?.close();
  });

  const implemented = new Set<Parts['implemented'] extends Set<infer R> ? R : never>();
  // An answer waits until its change reached the node's edges: this process's, then its fellow workers'.
  const settle = async (lastSeq: number) => {
    const settled =
      (await dispatcher.settled(lastSeq, SETTLE_TIMEOUT_MS)) && (await (worker?.link.settle(lastSeq) ?? true));
    if (!settled) fastify.log.warn({ seq: lastSeq }, 'answered before the change reached every edge');
  };
  const app: Parts = {
    config,
    db,
    sealer,
    blobs,
    dispatcher,
    jobs,
    housekeeping,
    mailer,
    outbound,
    hookOutbound,
    counters,
    node: { name: node.name, instance: node.instance, holdsLifeLock: node.holdsLifeLock },
    lifecycle,
    metrics,
    deployMetrics: new DeployMetrics(metrics.registry),
    tls,
    acme,
    log: fastify.log,
    fastify,
    implemented,
    access: accessGuards(db),
    handle(route, guard, handler) {
      implemented.add(route);
      bindRoute(fastify, db, route, guard, handler, settle, config.uploadTimeouts);
    },
  };
  // In a cluster the primary starts the node and runs its background work; the workers serve.
  await registerFeatures([...FEATURES, edgeFeature(edge.counted, { keepsTotals: !worker })], app, {
    api: config.roles.api && !primary,
    worker: config.roles.worker && !worker,
    builder: config.roles.builder && !worker,
    start: !worker,
  });
  if (worker) worker.link.follow(dispatcher);
  if (config.roles.worker && !worker) {
    jobs.run();
    if (options.housekeeping !== false) {
      const schedule = housekeeping.schedule();
      fastify.addHook('onClose', async () => schedule.stop());
      void schedule.run();
    }
  }
  dispatcher.run();
  return { app, edge };
}
