import cluster from 'node:cluster';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type BuiltApp, buildApp } from './app.ts';
import type { FromWorker, ToWorker } from './clusterMessages.ts';
import { type Config, ConfigError } from './config/types.ts';
import type { Parts } from './features/parts.ts';
import { createHttpServer } from './http/httpServer.ts';
import { saveCompiledCode } from './lifecycle/compiledCode.ts';
import { sitesPortListener } from './lifecycle/health.ts';
import { createLogger } from './logging.ts';
import { answerCount, PrimaryLink } from './primaryLink.ts';
import { listenTls } from './tls/https.ts';
import { type PrimaryDuties, WorkerPool } from './workerPool.ts';

/**
 * Many processes on one port. Each worker serves connections as a process alone would (the
 * sites, the console, the API, real-time sockets), following the outbox for its own routing table
 * and sockets. The primary serves no connection itself: it migrates and starts the node, runs its
 * background work (jobs, hooks, housekeeping, renewals), keeps what the node's processes share
 * without Redis (sign-in and form counts), fans a change's catch-up out to every worker before it
 * is answered, and answers the few node-wide requests (metrics, traffic) its workers hand over.
 */

const METRICS_EVERY_MS = 1_000;
/** How long the primary's own pass may take to follow a worker's change. */
const CATCH_UP_MS = 5_000;

/** `WHARF_WORKERS`: processes serving connections; unset means one per CPU, 1 means no cluster. */
export function workerCount(env: Record<string, string | undefined> = process.env): number {
  const value = env.WHARF_WORKERS;
  if (value === undefined || value === '') return os.availableParallelism();
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new ConfigError('Invalid configuration:\n  WHARF_WORKERS must be a whole number of processes, 1 or more');
  return Number(value);
}

export interface Running {
  app: Parts;
  stop(): Promise<void>;
}

/** Where the primary takes the requests its workers forward; a worker finds it from its parent's id. */
const primarySocketOf = (primaryPid: number) => path.join(os.tmpdir(), `wharf-${primaryPid}.sock`);

/** The node's identity, from the primary to the workers it forks. */
const NODE_ENV = 'WHARF_CLUSTER_NODE';

/** The primary: starts the node, then forks `count` workers that serve its port. */
export async function runPrimary(config: Config, count: number): Promise<Running> {
  let pool: WorkerPool | undefined;
  const { app, edge } = await buildApp(config, {
    cluster: {
      role: 'primary',
      onCommitSignal: (signal) => pool?.tellOthers(null, { type: 'wharf:wake', signal }),
    },
  });
  const primarySocket = primarySocketOf(process.pid);
  await rm(primarySocket, { force: true });
  await app.fastify.listen({ path: primarySocket });
  // The workers take connections from the port themselves, as the kernel hands them out. Node's
  // default on Linux has the primary accept each one and pass it on; one passed to a worker that is
  // killed before it takes it stays open in the primary, unanswered, for as long as its client
  // waits. And a primary busy with its own work would hold up every new connection.
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  const duties = primaryDuties(app, () => pool!);
  pool = new WorkerPool(app, edge.counted, config.shutdownGraceMs, duties);
  app.metrics.addPeers(() => pool!.scrapeWorkers());
  const stop = async () => {
    app.lifecycle.startDraining();
    await pool!.stop();
    await app.fastify.close();
  };
  try {
    await pool.start(count);
  } catch (error) {
    await stop();
    throw error;
  }
  app.lifecycle.serving();
  return { app, stop };
}

/** What the primary does for its workers: a change's catch-up across the node, the shared counts, their commits. */
function primaryDuties(app: Parts, pool: () => WorkerPool): PrimaryDuties {
  const { name, instance } = app.node;
  return {
    workerEnv: { [NODE_ENV]: JSON.stringify({ name, instance }) },
    async answer(question, from) {
      if (question.kind === 'count') return answerCount(app.counters, question);
      // The primary's own pass records the change's deliveries (hooks); the other workers catch up.
      await app.dispatcher.settled(question.seq, CATCH_UP_MS);
      await pool().catchUp(question.seq, from);
      return true;
    },
    committed(signal) {
      void (signal === 'jobs' ? app.jobs.wake() : app.dispatcher.wake());
    },
  };
}

/** A worker: serves connections until the primary says stop (signals go to the primary). */
export function runWorker(config: Config) {
  const log = createLogger(config.logLevel);
  const send = (message: FromWorker, then?: () => void) => process.send?.(message, undefined, undefined, then);
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => {});
  process.on('disconnect', () => process.exit(0));
  const link = new PrimaryLink((message) => send(message));
  process.on('message', (message: ToWorker) => link.receive(message));
  const starting = buildApp(config, {
    cluster: {
      role: 'worker',
      link,
      node: { ...(JSON.parse(process.env[NODE_ENV] ?? '{}') as { name: string; instance: string }), holdsLifeLock },
      primarySocket: primarySocketOf(process.ppid),
    },
  }).then(async (built) => {
    const stop = await serveConnections(built, config);
    saveCompiledCode();
    return { built, stop };
  });
  let metrics: NodeJS.Timeout | undefined;
  const sendMetrics = ({ edge }: BuiltApp) => {
    const traffic = edge.counted.traffic.take();
    if (traffic.length > 0) send({ type: 'wharf:metrics', traffic });
  };
  // Heard from the start: a question asked of a starting worker waits for it rather than being lost.
  link.onMessage(async (message) => {
    const worker = await starting.catch(() => null);
    if (!worker) return; // It could not start, and is exiting.
    if (message.type === 'wharf:scrape') {
      // The sites' counts first (messages arrive in order): a scrape sees every request served.
      sendMetrics(worker.built);
      const figures = await worker.built.app.metrics.ownFigures().catch((err) => {
        log.error({ err }, 'could not gather the figures of this worker');
        return null;
      });
      send({ type: 'wharf:scraped', id: message.id, figures });
    } else if (message.type === 'wharf:stop') {
      clearInterval(metrics);
      await worker.stop().catch((err) => log.error({ err }, 'the worker did not stop cleanly'));
      send({ type: 'wharf:stopped', traffic: worker.built.edge.counted.traffic.take() }, () => process.exit(0));
    }
  });
  starting.then(
    ({ built }) => {
      metrics = setInterval(() => sendMetrics(built), METRICS_EVERY_MS);
      send({ type: 'wharf:listening' });
    },
    (error: Error) => {
      log.error({ err: error }, 'the worker could not start');
      send({ type: 'wharf:failed', message: error.message }, () => process.exit(1));
    },
  );
}

/**
 * The node's life lock is its primary's: a worker lives only as long as its primary (it exits
 * when the IPC channel closes), so its work is never taken for a dead process's.
 */
const holdsLifeLock = () => true;

/**
 * Listens on the configured ports (HTTP, HTTPS, the sites' own) with a built app, as a process
 * alone or a cluster worker does; answers how to drain and close.
 */
export async function serveConnections({ app, edge }: BuiltApp, config: Config): Promise<() => Promise<void>> {
  await app.fastify.listen({ port: config.port, host: config.host });
  if (app.tls && config.https) await listenTls(app.tls, config.https.port, config.host);
  if (config.sitesPort !== null) {
    // A port of its own for the sites, e.g. behind a load balancer that splits by host.
    const sites = createHttpServer(sitesPortListener(edge, app.lifecycle));
    app.lifecycle.adopt(sites);
    await new Promise<void>((resolve, reject) => {
      sites.once('error', reject);
      sites.listen(config.sitesPort!, config.host, () => resolve());
    });
  }
  app.lifecycle.serving();
  return async () => {
    const cut = await app.lifecycle.drain(config.shutdownGraceMs);
    if (cut > 0) app.log.warn({ cut }, 'cut the requests still in flight at the end of the shutdown grace');
    await app.fastify.close();
  };
}
