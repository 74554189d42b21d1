import cluster, { type Worker } from 'node:cluster';
import type { Counters, SiteMetrics } from './edge/metrics.ts';
import type { Parts } from './features/parts.ts';
import type { ProcessFigures } from './metrics/nodeMetrics.ts';

/** What the primary and its workers say to each other over the cluster's IPC channel. */
export type ToWorker =
  | { type: 'wharf:reload'; id: number; siteIds: string[] }
  /** Asks for the worker's figures (a scrape of /metrics). */
  | { type: 'wharf:scrape'; id: number }
  | { type: 'wharf:stop' };
/** A worker's answer to a question that carried an `id`. */
type Answer =
  | { type: 'wharf:reloaded'; id: number }
  /** null when the worker could not gather them (logged there). */
  | { type: 'wharf:scraped'; id: number; figures: ProcessFigures | null };
export type FromWorker =
  | { type: 'wharf:listening' }
  /** It could not start, and why; it exits next. */
  | { type: 'wharf:failed'; message: string }
  | Answer
  | { type: 'wharf:metrics'; counts: [string, Counters][] }
  /** Drained and closed, with its last counts; it exits once this is sent. */
  | { type: 'wharf:stopped'; counts: [string, Counters][] };

const REFRESH_TIMEOUT_MS = 2_000;
/** Well within a scrape's timeout (Prometheus' default is 10 s): a stuck worker must not fail the scrape. */
const SCRAPE_TIMEOUT_MS = 3_000;
/** How long a stopping worker may take beyond the shutdown grace (closing its database, last metrics). */
const STOP_MARGIN_MS = 5_000;

/**
 * How long to wait before starting a worker again after workers died before they served: 1 s,
 * doubling up to a minute, so a worker that cannot start (a database down, a bad file) is retried
 * without a busy loop. A worker that starts serving resets it. After `giveUpAfter` failed starts
 * in a row the cause is not one that waiting cures (a port taken, a broken install).
 */
export class RestartBackoff {
  private failedStarts = 0;

  constructor(
    private readonly firstMs = 1_000,
    private readonly maxMs = 60_000,
    readonly giveUpAfter = 5,
  ) {}

  /** The wait before the next start, counting this failed one. */
  failed(): number {
    this.failedStarts++;
    return Math.min(this.firstMs * 2 ** (this.failedStarts - 1), this.maxMs);
  }

  get keepsFailing() {
    return this.failedStarts >= this.giveUpAfter;
  }

  served() {
    this.failedStarts = 0;
  }
}

/** Why a worker ended before it served: what it said, or else how it died. */
const causeOfEnd = (said: string | undefined, code: number | null, signal: string | null) =>
  said ?? (signal ? `it was stopped by ${signal}` : `it exited with code ${code}`);

/**
 * The primary's workers: starts them, replaces any that dies (at once when it had been serving,
 * after a growing wait when it died while starting), asks them to catch up with changes, and
 * stops them. A worker may die at any moment; nothing said to it may then end the primary.
 */
export class WorkerPool {
  private readonly workers = new Set<Worker>();
  private readonly serving = new Set<Worker>();
  private readonly backoff = new RestartBackoff();
  private readonly restarts = new Set<NodeJS.Timeout>();
  private stopping = false;
  private nextQuestion = 0;
  /** Questions a worker has not answered yet, by id: one message listener per worker serves them all. */
  private readonly pendingAnswers = new Map<number, { worker: Worker; done: (answer?: Answer) => void }>();
  /** The node's start while it lasts (see `start`). */
  private starting: { count: number; done: () => void; failed: (error: Error) => void } | null = null;

  constructor(
    private readonly app: Parts,
    /** The node's per-site figures: a stopping worker hands its last counts over to them. */
    private readonly siteMetrics: Pick<SiteMetrics, 'add'>,
    private readonly graceMs: number,
  ) {}

  /**
   * Starts `count` workers and resolves once they all serve. One that dies first (a signal sent to
   * the whole process group, a dependency slow to answer) is replaced after the back-off; when
   * starts keep failing, the node's start fails with the last one's cause.
   */
  start(count: number): Promise<void> {
    return new Promise((done, failed) => {
      this.starting = { count, done, failed };
      for (let i = 0; i < count; i++) this.fork();
    });
  }

  private fork() {
    const worker = cluster.fork();
    const workerPid = worker.process.pid;
    let said: string | undefined;
    this.workers.add(worker);
    // A message to a worker that just died fails (EPIPE, channel closed); its exit is handled below.
    worker.on('error', (err) => this.app.log.warn({ err, workerPid }, 'a message to a worker failed'));
    worker.on('message', (message: FromWorker) => {
      if (message.type === 'wharf:listening') this.served(worker);
      else if (message.type === 'wharf:failed') said = message.message;
      else this.receive(message);
    });
    worker.on('exit', (code, signal) => {
      this.workers.delete(worker);
      const hadServed = this.serving.delete(worker);
      for (const pending of [...this.pendingAnswers.values()]) if (pending.worker === worker) pending.done();
      if (this.stopping) return;
      if (hadServed) {
        this.app.log.error({ workerPid, code, signal }, 'a worker stopped; starting another');
        this.restartAfter(0);
      } else this.failedToStart(workerPid, causeOfEnd(said, code, signal));
    });
  }

  private served(worker: Worker) {
    this.serving.add(worker);
    this.backoff.served();
    this.app.log.info({ workerPid: worker.process.pid }, 'a worker is serving');
    if (this.starting && this.serving.size === this.starting.count) {
      this.starting.done();
      this.starting = null;
    }
  }

  private failedToStart(workerPid: number | undefined, cause: string) {
    const restartInMs = this.backoff.failed();
    // Once the node serves, workers that cannot start now may later (a dependency back): keep trying.
    if (this.starting && this.backoff.keepsFailing) {
      const times = this.backoff.giveUpAfter;
      this.starting.failed(new Error(`Workers stopped before serving ${times} times in a row; the last: ${cause}`));
      this.starting = null;
      return;
    }
    this.app.log.error({ workerPid, cause, restartInMs }, 'a worker stopped before it served; starting another');
    this.restartAfter(restartInMs);
  }

  private restartAfter(delayMs: number) {
    const timer = setTimeout(() => {
      this.restarts.delete(timer);
      if (!this.stopping) this.fork();
    }, delayMs);
    this.restarts.add(timer);
  }

  private receive(message: FromWorker) {
    if (message.type === 'wharf:metrics' || message.type === 'wharf:stopped') {
      for (const [siteId, counts] of message.counts) this.siteMetrics.add(siteId, counts);
    }
    if (message.type === 'wharf:reloaded' || message.type === 'wharf:scraped')
      this.pendingAnswers.get(message.id)?.done(message);
  }

  /** Has every worker read these sites again into its routing table. */
  async reloadSites(siteIds: string[]): Promise<void> {
    // A stuck worker must not hold up the API; it reads these sites again when it recovers or restarts.
    const reload = (id: number): ToWorker => ({ type: 'wharf:reload', id, siteIds });
    await Promise.all([...this.workers].map((worker) => this.ask(worker, reload, REFRESH_TIMEOUT_MS)));
  }

  /** The figures of every serving worker that answers in time (one that does not is left out, and said). */
  async scrapeWorkers(): Promise<ProcessFigures[]> {
    const scrape = (id: number): ToWorker => ({ type: 'wharf:scrape', id });
    const workers = [...this.serving];
    const answers = await Promise.all(workers.map((worker) => this.ask(worker, scrape, SCRAPE_TIMEOUT_MS)));
    return answers.flatMap((answer, i) => {
      if (answer?.type === 'wharf:scraped' && answer.figures) return [answer.figures];
      this.app.log.warn({ workerPid: workers[i]!.process.pid }, "a worker's figures are missing from /metrics");
      return [];
    });
  }

  /** Asks a worker a question; its answer, or undefined once it dies or `timeoutMs` passes. */
  private ask(worker: Worker, question: (id: number) => ToWorker, timeoutMs: number): Promise<Answer | undefined> {
    if (!worker.isConnected()) return Promise.resolve(undefined);
    const id = this.nextQuestion++;
    return new Promise((resolve) => {
      const done = (answer?: Answer) => {
        clearTimeout(timer);
        this.pendingAnswers.delete(id);
        resolve(answer);
      };
      const timer = setTimeout(done, timeoutMs);
      this.pendingAnswers.set(id, { worker, done });
      // A worker dying meanwhile cannot answer: its exit settles the wait, so a failed send needs nothing more.
      worker.send(question(id), (error) => error && done());
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
