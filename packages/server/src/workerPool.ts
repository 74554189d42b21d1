import cluster, { type Worker } from 'node:cluster';
import type { Answer, FromWorker, PrimaryQuestion, ToWorker } from './clusterMessages.ts';
import type { CommitSignal } from './db/commitSignals.ts';
import type { AnswerCounter } from './edge/traffic/answerCounter.ts';
import type { Parts } from './features/parts.ts';
import type { ProcessFigures } from './metrics/nodeMetrics.ts';

/** What the primary does with its workers' questions and signals (see cluster.ts). */
export interface PrimaryDuties {
  /** Added to each worker's environment. */
  workerEnv: Record<string, string>;
  answer(question: PrimaryQuestion, from: Worker): Promise<unknown>;
  committed(signal: CommitSignal): void;
}

const CATCH_UP_TIMEOUT_MS = 5_000;
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
    /** The node's traffic: each worker's counts are added to it, a stopping worker's last ones too. */
    private readonly traffic: Pick<AnswerCounter, 'addCounted'>,
    private readonly graceMs: number,
    private readonly duties: PrimaryDuties,
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
    const worker = cluster.fork(this.duties.workerEnv);
    const workerPid = worker.process.pid;
    let said: string | undefined;
    this.workers.add(worker);
    // A message to a worker that just died fails (EPIPE, channel closed); its exit is handled below.
    worker.on('error', (err) => this.app.log.warn({ err, workerPid }, 'a message to a worker failed'));
    worker.on('message', (message: FromWorker) => {
      if (message.type === 'wharf:listening') this.served(worker);
      else if (message.type === 'wharf:failed') said = message.message;
      else if (message.type === 'wharf:ask') void this.answer(worker, message.id, message.question);
      else if (message.type === 'wharf:committed') {
        this.duties.committed(message.signal);
        this.tellOthers(worker, { type: 'wharf:wake', signal: message.signal });
      } else this.receive(message);
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
      this.traffic.addCounted(message.traffic);
    }
    if (message.type === 'wharf:caught-up' || message.type === 'wharf:scraped')
      this.pendingAnswers.get(message.id)?.done(message);
  }

  /** Answers a worker's question; a failure answers undefined (and is logged), as the worker would not wait forever. */
  private async answer(worker: Worker, id: number, question: PrimaryQuestion) {
    const value = await this.duties.answer(question, worker).catch((err) => {
      this.app.log.error({ err, question: question.kind }, "could not answer a worker's question");
      return undefined;
    });
    if (worker.isConnected()) worker.send({ type: 'wharf:answer', id, value } satisfies ToWorker, () => undefined);
  }

  /** Tells every worker but `from` (a signal it sent itself). */
  tellOthers(from: Worker | null, message: ToWorker) {
    for (const worker of this.workers)
      if (worker !== from && worker.isConnected()) worker.send(message, () => undefined);
  }

  /**
   * Has every worker but `from` (which has) followed the outbox up to `seq`, so that whichever
   * worker takes the client's next request sees the change. A stuck worker must not hold up the
   * answer: it follows the outbox when it recovers, or reads everything again when it restarts.
   */
  async catchUp(seq: number, from: Worker): Promise<void> {
    const catchUp = (id: number): ToWorker => ({ type: 'wharf:catch-up', id, seq });
    const others = [...this.workers].filter((worker) => worker !== from);
    await Promise.all(others.map((worker) => this.ask(worker, catchUp, CATCH_UP_TIMEOUT_MS)));
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
