import type { BaseLogger } from 'pino';

/** Where an outage is told: the API's logger, or a worker's own. */
export type OutageLogger = Pick<BaseLogger, 'error' | 'warn' | 'info'>;

/**
 * The outages of one dependency of this process (Redis, the blob store), each logged once: when
 * it goes away, with why, and when it answers again, with how long it was away and how many
 * calls failed meanwhile. A dependency that fails call after call would otherwise write a line
 * per request and drown the one that says what happened.
 */
export class Outage {
  private since: number | null = null;
  private failures = 0;
  private lastReason = '';

  constructor(
    private readonly log: OutageLogger,
    /** The dependency, as the log names it: `Redis`, `the blob store`. */
    private readonly name: string,
    /** What this process does while it is away, said once in the line that opens the outage. */
    private readonly meanwhile: string,
  ) {}

  get away() {
    return this.since !== null;
  }

  /** Why it is away (the latest failure's message), or null while it answers. */
  get reason() {
    return this.away ? this.lastReason : null;
  }

  /** A call failed because the dependency did not answer (not because it refused the call). */
  failed(error: unknown) {
    this.failures += 1;
    this.lastReason = (error as Error)?.message || String(error);
    if (this.since !== null) return;
    this.since = Date.now();
    this.log.error({ err: error }, `${this.name} does not answer: ${this.meanwhile}`);
  }

  /** A call got an answer: an outage under way is over. */
  answered() {
    if (this.since === null) return;
    const seconds = Math.round((Date.now() - this.since) / 100) / 10;
    this.log.warn({ awaySeconds: seconds, failedCalls: this.failures }, `${this.name} answers again`);
    this.since = null;
    this.failures = 0;
  }
}
