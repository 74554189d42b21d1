import cluster, { type Worker } from 'node:cluster';
import type { Counters } from './edge/metrics.ts';
import type { WharfApp } from './wharfApp.ts';

/** What the primary and its workers say to each other over the cluster's IPC channel. */
export type ToWorker =
  | { type: 'wharf:reload'; id: number; siteIds: string[] }
  | { type: 'wharf:stop' }
  | { type: 'wharf:exit' };
export type FromWorker =
  | { type: 'wharf:listening' }
  | { type: 'wharf:failed'; message: string }
  | { type: 'wharf:reloaded'; id: number }
  | { type: 'wharf:metrics'; counts: [string, Counters][] }
  /** Drained and closed, with its last counts; it waits for `wharf:exit` (see `receive`). */
  | { type: 'wharf:stopped'; counts: [string, Counters][] };

const REFRESH_TIMEOUT_MS = 2_000;
/** How long a stopping worker may take beyond the shutdown grace (closing its database, last metrics). */
const STOP_MARGIN_MS = 5_000;

/**
 * How long to wait before starting a worker again after workers died before they served: 1 s,
 * doubling up to a minute, so a worker that cannot start (a database down, a bad file) is retried
 * without a busy loop. A worker that starts serving resets it.
 */
export class RestartBackoff {
  private failedStarts = 0;

  constructor(
    private readonly firstMs = 1_000,
    private readonly maxMs = 60_000,
  ) {}

  /** The wait before the next start, counting this failed one. */
  failed(): number {
    this.failedStarts++;
    return Math.min(this.firstMs * 2 ** (this.failedStarts - 1), this.maxMs);
  }

  served() {
    this.failedStarts = 0;
  }
}

/**
 * The primary's workers: forks them, replaces any that dies (at once when it had been serving,
 * after a growing wait when it died while starting), asks them to catch up with changes, and
 * stops them. A worker may die at any moment; nothing said to it may then end the primary.
 */
export class WorkerPool {
  private readonly workers = new Set<Worker>();
  private readonly backoff = new RestartBackoff();
  private readonly restarts = new Set<NodeJS.Timeout>();
  private stopping = false;
  private nextRefresh = 0;
  /** Refreshes a worker has not confirmed yet, by id: one message listener per worker serves them all. */
  private readonly pendingRefreshes = new Map<number, { worker: Worker; done: () => void }>();

  constructor(
    private readonly app: WharfApp,
    private readonly graceMs: number,
  ) {}

  /** Forks a worker and resolves once it serves. */
  fork(): Promise<void> {
    const worker = cluster.fork();
    const workerPid = worker.process.pid;
    let serving = false;
    this.workers.add(worker);
    // A message to a worker that just died fails (EPIPE, channel closed); its exit is handled below.
    worker.on('error', (err) => this.app.log.warn({ err, workerPid }, 'a message to a worker failed'));
    worker.on('message', (message: FromWorker) => this.receive(worker, message));
    worker.on('exit', (code, signal) => {
      this.workers.delete(worker);
      for (const pending of [...this.pendingRefreshes.values()]) if (pending.worker === worker) pending.done();
      if (this.stopping) return;
      const delayMs = serving ? 0 : this.backoff.failed();
      this.app.log.error({ workerPid, code, signal, restartInMs: delayMs }, 'a worker stopped; starting another');
      this.restartAfter(delayMs);
    });
    return new Promise((resolve, reject) => {
      worker.on('message', (message: FromWorker) => {
        if (message.type === 'wharf:listening') {
          serving = true;
          this.backoff.served();
          this.app.log.info({ workerPid }, 'a worker is serving');
          resolve();
        }
        if (message.type === 'wharf:failed') reject(new Error(message.message));
      });
      worker.on('exit', () => reject(new Error('A worker stopped while starting')));
    });
  }

  private restartAfter(delayMs: number) {
    const timer = setTimeout(() => {
      this.restarts.delete(timer);
      if (!this.stopping) this.fork().catch((err) => this.app.log.error({ err }, 'a worker could not start'));
    }, delayMs);
    this.restarts.add(timer);
  }

  private receive(worker: Worker, message: FromWorker) {
    if (message.type === 'wharf:metrics' || message.type === 'wharf:stopped') {
      for (const [siteId, counts] of message.counts) this.app.edge.metrics.add(siteId, counts);
    }
    if (message.type === 'wharf:reloaded') this.pendingRefreshes.get(message.id)?.done();
    if (message.type === 'wharf:stopped') {
      // A connection this process handed to the worker before it heard the worker close its port is
      // on its way still; the worker sends such ones back, and must live until they arrive. They come
      // before this answer: the channel keeps its order.
      worker.send({ type: 'wharf:exit' } satisfies ToWorker, (error) => error && worker.process.kill('SIGKILL'));
    }
  }

  /** Has every worker read these sites again into its routing table. */
  reloadSites(siteIds: string[]): Promise<void> {
    return Promise.all([...this.workers].map((worker) => this.reloadOne(worker, siteIds))).then(() => undefined);
  }

  private reloadOne(worker: Worker, siteIds: string[]) {
    if (!worker.isConnected()) return Promise.resolve();
    const id = this.nextRefresh++;
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.pendingRefreshes.delete(id);
        resolve();
      };
      // A stuck worker must not hold up the API; it reads these sites again when it recovers or restarts.
      const timer = setTimeout(done, REFRESH_TIMEOUT_MS);
      this.pendingRefreshes.set(id, { worker, done });
      // A worker dying meanwhile cannot confirm: its exit settles the wait, so a failed send needs nothing more.
      worker.send({ type: 'wharf:reload', id, siteIds } satisfies ToWorker, (error) => error && done());
    });
  }

  /** Asks every worker to drain and stop; one still running after the grace (and a margin) is killed. */
  async stop() {
    this.stopping = true;
    for (const timer of this.restarts) clearTimeout(timer);
    await Promise.all([...this.workers].map((worker) => this.stopOne(worker)));
  }

  private stopOne(worker: Worker) {
    return new Promise<void>((resolve) => {
      if (worker.isDead()) return resolve();
      const kill = setTimeout(() => worker.process.kill('SIGKILL'), this.graceMs + STOP_MARGIN_MS);
      worker.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      worker.send({ type: 'wharf:stop' } satisfies ToWorker, (error) => error && worker.process.kill('SIGKILL'));
    });
  }
}
