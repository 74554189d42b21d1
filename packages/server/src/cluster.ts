import cluster, { type Worker } from 'node:cluster';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from './app.ts';
import { type Config, ConfigError } from './config.ts';
import type { Counters } from './edge/metrics.ts';
import { startEdgeWorker } from './edge/workerServer.ts';
import type { WharfApp } from './wharfApp.ts';

/**
 * Many processes on one port: the primary runs everything but serves no connection itself
 * (migrations, the first admin, the API, real-time sockets, housekeeping); the workers take
 * every connection, serve the sites and hand the console's and the API's requests to the
 * primary over a local socket. So the edge uses every CPU while anything with state in memory
 * (sessions' real-time sockets, rate limits of sign-ins, metric totals) lives in one place.
 */

type ToWorker = { type: 'wharf:refresh'; id: number } | { type: 'wharf:stop' };
type FromWorker =
  | { type: 'wharf:listening' }
  | { type: 'wharf:failed'; message: string }
  | { type: 'wharf:refreshed'; id: number }
  | { type: 'wharf:metrics'; counts: [string, Counters][] }
  | { type: 'wharf:error'; message: string };

const REFRESH_TIMEOUT_MS = 2_000;
const METRICS_EVERY_MS = 1_000;
const RESTART_DELAY_MS = 1_000;

/** `WHARF_WORKERS`: processes serving connections; unset means one per CPU, 1 means no cluster. */
export function workerCount(env: Record<string, string | undefined> = process.env): number {
  const value = env.WHARF_WORKERS;
  if (value === undefined || value === '') return os.availableParallelism();
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new ConfigError('Invalid configuration:\n  WHARF_WORKERS must be a whole number of processes, 1 or more');
  return Number(value);
}

export interface Running {
  app: WharfApp;
  stop(): Promise<void>;
}

class WorkerPool {
  private readonly workers = new Set<Worker>();
  private stopping = false;
  private nextRefresh = 0;
  /** Refreshes a worker has not confirmed yet, by id: one message listener per worker serves them all. */
  private readonly pendingRefreshes = new Map<number, { worker: Worker; done: () => void }>();

  constructor(private readonly app: WharfApp) {}

  /** Forks a worker and resolves once it listens. */
  fork(): Promise<void> {
    const worker = cluster.fork();
    this.workers.add(worker);
    worker.on('message', (message: FromWorker) => this.receive(message));
    worker.on('exit', (code, signal) => {
      this.workers.delete(worker);
      for (const pending of [...this.pendingRefreshes.values()]) if (pending.worker === worker) pending.done();
      if (this.stopping) return;
      this.app.log.error({ code, signal }, 'a worker stopped; starting another');
      setTimeout(() => {
        if (!this.stopping) this.fork().catch((err) => this.app.log.error({ err }, 'a worker could not start'));
      }, RESTART_DELAY_MS);
    });
    return new Promise((resolve, reject) => {
      worker.on('message', (message: FromWorker) => {
        if (message.type === 'wharf:listening') resolve();
        if (message.type === 'wharf:failed') reject(new Error(message.message));
      });
      worker.on('exit', () => reject(new Error('A worker stopped while starting')));
    });
  }

  private receive(message: FromWorker) {
    if (message.type === 'wharf:metrics') {
      for (const [siteId, counts] of message.counts) this.app.edge.metrics.add(siteId, counts);
    } else if (message.type === 'wharf:refreshed') this.pendingRefreshes.get(message.id)?.done();
    else if (message.type === 'wharf:error') this.app.log.error(message.message);
  }

  /** Has every worker read the changes committed so far into its routing table. */
  refresh(): Promise<void> {
    return Promise.all([...this.workers].map((worker) => this.refreshOne(worker))).then(() => undefined);
  }

  private refreshOne(worker: Worker) {
    const id = this.nextRefresh++;
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.pendingRefreshes.delete(id);
        resolve();
      };
      // A stuck worker must not hold up the API; it catches up on its own within a second.
      const timer = setTimeout(done, REFRESH_TIMEOUT_MS);
      this.pendingRefreshes.set(id, { worker, done });
      worker.send({ type: 'wharf:refresh', id } satisfies ToWorker);
    });
  }

  async stop() {
    this.stopping = true;
    await Promise.all(
      [...this.workers].map(
        (worker) =>
          new Promise<void>((resolve) => {
            if (worker.isDead()) return resolve();
            worker.once('exit', () => resolve());
            worker.send({ type: 'wharf:stop' } satisfies ToWorker, (error: Error | null) => error && worker.kill());
          }),
      ),
    );
  }
}

/** Where the primary takes the requests its workers forward; a worker finds it from its parent's id. */
const primarySocketOf = (primaryPid: number) => path.join(os.tmpdir(), `wharf-${primaryPid}.sock`);

/** The primary: builds the whole app once, then forks `count` workers that serve its port. */
export async function runPrimary(config: Config, count: number): Promise<Running> {
  const app = await buildApp(config);
  const primarySocket = primarySocketOf(process.pid);
  await rm(primarySocket, { force: true });
  await app.fastify.listen({ path: primarySocket });
  const pool = new WorkerPool(app);
  app.edge.leaveSitesToPeers();
  app.edge.addPeer(() => pool.refresh());
  const stop = async () => {
    await pool.stop();
    await app.fastify.close();
  };
  try {
    await Promise.all(Array.from({ length: count }, () => pool.fork()));
  } catch (error) {
    await stop();
    throw error;
  }
  return { app, stop };
}

/** A worker: serves connections until the primary says stop (signals go to the primary). */
export async function runWorker(config: Config) {
  const send = (message: FromWorker, then?: () => void) => process.send?.(message, undefined, undefined, then);
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => {});
  process.on('disconnect', () => process.exit(0));
  const onError = (error: unknown) => send({ type: 'wharf:error', message: String((error as Error)?.stack ?? error) });
  let worker: Awaited<ReturnType<typeof startEdgeWorker>>;
  try {
    worker = await startEdgeWorker(config, primarySocketOf(process.ppid), onError);
  } catch (error) {
    send({ type: 'wharf:failed', message: (error as Error).message }, () => process.exit(1));
    return;
  }
  const sendMetrics = (then?: () => void) => {
    const counts = worker.edge.metrics.takePending();
    if (counts.length > 0 || then) send({ type: 'wharf:metrics', counts }, then);
  };
  const metrics = setInterval(() => sendMetrics(), METRICS_EVERY_MS);
  process.on('message', async (message: ToWorker) => {
    if (message.type === 'wharf:refresh') {
      await worker.edge.refresh().catch(onError);
      send({ type: 'wharf:refreshed', id: message.id });
    } else if (message.type === 'wharf:stop') {
      clearInterval(metrics);
      await worker.close().catch(onError);
      sendMetrics(() => process.exit(0));
    }
  });
  send({ type: 'wharf:listening' });
}
