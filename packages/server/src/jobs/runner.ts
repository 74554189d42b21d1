import type { Db } from '../db/schema.ts';
import { now } from '../lib/ids.ts';
import { PassLoop } from '../lib/passLoop.ts';
import { MAX_ATTEMPTS, retryDelay } from './backoff.ts';
import type { Job } from './queue.ts';

/** What one attempt came to. A final failure is not retried (a 4xx other than 429, a refused address). */
export type JobOutcome = { ok: true } | { ok: false; final: boolean; error: string; retryAfterMs?: number | null };

/** Sends one job; records what it needs (the hook's delivery rows) itself. `attempt` counts from 1. */
export type JobSender = (job: Job, attempt: number) => Promise<JobOutcome>;

interface RunnerLog {
  error(details: Record<string, unknown>, message: string): void;
  warn(details: Record<string, unknown>, message: string): void;
}

const CONCURRENCY = 8;
const POLL_EVERY_MS = 1_000;
/** Longer than any attempt (10 s timeouts); a job whose process died mid-send is taken again after it. */
const LEASE_MS = 30_000;
const WAKE_TIMER_LIMIT_MS = 60_000;

const later = (ms: number) => new Date(Date.now() + ms).toISOString();

/**
 * Sends what the queue holds when it is due, a few at a time. Each job is claimed with a lease
 * (a conditional update, so two processes never send one job at once), and after each attempt is
 * done, failed for good, or scheduled again with backoff.
 */
export class JobRunner {
  private readonly senders = new Map<string, JobSender>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly loop = new PassLoop(() =>
    this.claimDue().catch((err) => this.log.error({ err }, 'reading the job queue failed')),
  );

  constructor(
    private readonly db: Db,
    private readonly log: RunnerLog,
  ) {}

  register(kind: string, sender: JobSender) {
    this.senders.set(kind, sender);
  }

  /** Whether this process runs the queue (the worker role); another's commits only wake it if so. */
  private running = false;
  /** Where a wake goes in a process that does not run the queue (a cluster worker: its primary). */
  private relay: (() => void) | null = null;

  run() {
    this.running = true;
    this.loop.start(POLL_EVERY_MS);
  }

  /** Looks for due jobs now, in a process that runs the queue (or has the one that does look); never rejects. */
  wake(): Promise<void> {
    if (this.running) return this.loop.wake();
    this.relay?.();
    return Promise.resolve();
  }

  /** Passes this process's wakes on to the process that runs the queue. */
  relayWakesTo(wake: () => void) {
    this.relay = wake;
  }

  /** Stops claiming and waits for the attempts under way. */
  async close() {
    await this.loop.stop();
    await Promise.all(this.inFlight);
  }

  private async claimDue() {
    const free = CONCURRENCY - this.inFlight.size;
    if (free <= 0) return;
    const time = now();
    const due = await this.db
      .selectFrom('jobs')
      .select('id')
      .where('state', '=', 'pending')
      .where('next_attempt_at', '<=', time)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', time)]))
      .orderBy('next_attempt_at')
      .limit(free)
      .execute();
    for (const { id } of due) {
      const job = await this.claim(id, time);
      if (job) this.start(job);
    }
  }

  private async claim(id: string, time: string): Promise<Job | undefined> {
    return this.db
      .updateTable('jobs')
      .set((eb) => ({ lease_until: later(LEASE_MS), attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', time)]))
      .returningAll()
      .executeTakeFirst();
  }

  private start(job: Job) {
    const sending: Promise<void> = this.attempt(job).finally(() => {
      this.inFlight.delete(sending);
      // A free slot may take the next due job at once.
      void this.wake();
    });
    this.inFlight.add(sending);
  }

  private async attempt(job: Job) {
    const sender = this.senders.get(job.kind);
    let outcome: JobOutcome;
    try {
      outcome = sender
        ? await sender(job, job.attempts)
        : { ok: false, final: true, error: `Nothing sends jobs of kind ${job.kind}` };
    } catch (err) {
      this.log.error({ err, job: job.id, kind: job.kind }, 'a job failed unexpectedly');
      outcome = { ok: false, final: false, error: (err as Error).message };
    }
    await this.settle(job, outcome).catch((err) => this.log.error({ err, job: job.id }, 'recording a job failed'));
  }

  private async settle(job: Job, outcome: JobOutcome) {
    const update = this.db.updateTable('jobs').where('id', '=', job.id);
    if (outcome.ok) {
      await update.set({ state: 'done', lease_until: null, last_error: null, finished_at: now() }).execute();
      return;
    }
    if (outcome.final || job.attempts >= MAX_ATTEMPTS) {
      this.log.warn({ job: job.id, kind: job.kind, attempts: job.attempts, error: outcome.error }, 'a job failed');
      await update.set({ state: 'failed', lease_until: null, last_error: outcome.error, finished_at: now() }).execute();
      return;
    }
    const delay = retryDelay(job.attempts, outcome.retryAfterMs);
    await update.set({ lease_until: null, last_error: outcome.error, next_attempt_at: later(delay) }).execute();
    // Due before the next poll would notice: a timer of its own (a longer wait is the poll's).
    if (delay < WAKE_TIMER_LIMIT_MS) setTimeout(() => void this.wake(), delay).unref();
  }
}
