import cluster from 'node:cluster';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from './app.ts';
import { type Config, ConfigError } from './config/types.ts';
import { startEdgeWorker } from './edge/workerServer.ts';
import type { Parts } from './features/parts.ts';
import { createLogger } from './logging.ts';
import { type FromWorker, type ToWorker, WorkerPool } from './workerPool.ts';

/**
 * Many processes on one port: the primary runs everything but serves no connection itself
 * (migrations, the first admin, the API, real-time sockets, housekeeping); the workers take
 * every connection, serve the sites and hand the console's and the API's requests to the
 * primary over a local socket. So the edge uses every CPU while anything with state in memory
 * (sessions' real-time sockets, rate limits of sign-ins, metric totals) lives in one place.
 */

const METRICS_EVERY_MS = 1_000;

type EdgeWorker = Awaited<ReturnType<typeof startEdgeWorker>>;

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

/** The primary: builds the whole app once, then forks `count` workers that serve its port. */
export async function runPrimary(config: Config, count: number): Promise<Running> {
  const { app, edge } = await buildApp(config, { behindWorkers: true });
  const primarySocket = primarySocketOf(process.pid);
  await rm(primarySocket, { force: true });
  await app.fastify.listen({ path: primarySocket });
  // The workers take connections from the port themselves, as the kernel hands them out. Node's
  // default on Linux has the primary accept each one and pass it on; one passed to a worker that is
  // killed before it takes it stays open in the primary, unanswered, for as long as its client
  // waits. And a primary busy with the API would hold up every site's new connections.
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  const pool = new WorkerPool(app, edge.metrics, config.shutdownGraceMs);
  edge.leaveSitesToPeers();
  edge.addPeer((siteIds) => pool.reloadSites(siteIds));
  app.metrics.addPeers(() => pool.scrapeWorkers());
  // The workers drain first: the requests they hand over to the API are in flight too.
  const stop = async () => {
    app.lifecycle.startDraining();
    await pool.stop();
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

/** A worker: serves connections until the primary says stop (signals go to the primary). */
export function runWorker(config: Config) {
  const log = createLogger(config.logLevel);
  const send = (message: FromWorker, then?: () => void) => process.send?.(message, undefined, undefined, then);
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => {});
  process.on('disconnect', () => process.exit(0));
  const starting = startEdgeWorker(config, primarySocketOf(process.ppid), log);
  let metrics: NodeJS.Timeout | undefined;
  const sendMetrics = (worker: EdgeWorker) => {
    const counts = worker.edge.metrics.takePending();
    if (counts.length > 0) send({ type: 'wharf:metrics', counts });
  };
  // Heard from the start: a refresh asked of a starting worker waits for it rather than being lost.
  const obey = async (message: ToWorker) => {
    const worker = await starting.catch(() => null);
    if (!worker) return; // It could not start, and is exiting.
    if (message.type === 'wharf:reload') {
      await worker.edge.reloadSites(message.siteIds).catch((err) => log.error({ err }, 'edge reload failed'));
      send({ type: 'wharf:reloaded', id: message.id });
    } else if (message.type === 'wharf:scrape') {
      // The sites' counts first (messages arrive in order): a scrape sees every request served.
      sendMetrics(worker);
      const figures = await worker.metrics.ownFigures().catch((err) => {
        log.error({ err }, 'could not gather the figures of this worker');
        return null;
      });
      send({ type: 'wharf:scraped', id: message.id, figures });
    } else if (message.type === 'wharf:stop') {
      clearInterval(metrics);
      await worker.close().catch((err) => log.error({ err }, 'the worker did not stop cleanly'));
      send({ type: 'wharf:stopped', counts: worker.edge.metrics.takePending() }, () => process.exit(0));
    }
  };
  process.on('message', (message: ToWorker) => void obey(message));
  starting.then(
    (worker) => {
      metrics = setInterval(() => sendMetrics(worker), METRICS_EVERY_MS);
      send({ type: 'wharf:listening' });
    },
    (error: Error) => {
      log.error({ err: error }, 'the worker could not start');
      send({ type: 'wharf:failed', message: error.message }, () => process.exit(1));
    },
  );
}
