import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/schema.ts';
import { LockLost, onOneNodeAtATime } from './oneNodeAtATime.ts';

/** One round of housekeeping as a chore sees it. */
export interface Round {
  at: Date;
  /** Aborted once the round's lock is lost: a chore checks it between its steps (see onOneNodeAtATime). */
  held?: AbortSignal;
  /** The hourly round, where a chore may do its long work too (a walk through the whole store). */
  thorough: boolean;
}

/** Periodic work a feature owns (retention and collection, ending stale claims, pruning old jobs). */
export interface Chore {
  name: string;
  run(round: Round): Promise<void>;
}

/** Rounds between two thorough ones: with millions of files, a walk through the store is long. */
const ROUNDS_PER_THOROUGH = 12;

/**
 * The installation's housekeeping: the chores the features add (in their `work`), run in rounds,
 * on one node at a time, every few minutes.
 */
export class Housekeeping {
  private readonly chores: Chore[] = [];

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {}

  add(chore: Chore) {
    this.chores.push(chore);
  }

  /**
   * Runs every chore in the order added. One that fails does not stop the others (a full disk must
   * not stop the pruning of old jobs); the round then fails with every failure. A lost lock stops
   * the round at once.
   */
  async round(at = new Date(), { thorough = true, held }: { thorough?: boolean; held?: AbortSignal } = {}) {
    const failures: unknown[] = [];
    for (const chore of this.chores) {
      held?.throwIfAborted();
      try {
        await chore.run({ at, held, thorough });
      } catch (error) {
        if (error instanceof LockLost) throw error;
        this.log.error({ err: error, chore: chore.name }, 'a housekeeping chore failed');
        failures.push(error);
      }
    }
    if (failures.length > 0) throw new AggregateError(failures, `${failures.length} housekeeping chores failed`);
  }

  /**
   * Runs a round every `everyMs`, a thorough one hourly; the timer never keeps the process alive.
   * Answers a function that runs one now, and one that stops the schedule.
   */
  schedule(everyMs = 5 * 60_000) {
    let rounds = 0;
    const run = async () => {
      try {
        const thorough = rounds++ % ROUNDS_PER_THOROUGH === 0;
        await onOneNodeAtATime(this.db, 'housekeeping', (held) => this.round(new Date(), { thorough, held }));
      } catch (error) {
        if (error instanceof LockLost)
          this.log.warn({ err: error }, 'housekeeping stopped: the next round takes it up');
        else if (!(error instanceof AggregateError)) this.log.error({ err: error }, 'housekeeping failed');
      }
    };
    const timer = setInterval(run, everyMs);
    timer.unref();
    return { run, stop: () => clearInterval(timer) };
  }
}
