import type { FromWorker, PrimaryQuestion, ToWorker } from './clusterMessages.ts';
import type { CommitSignal } from './db/commitSignals.ts';
import type { Dispatcher } from './events/dispatcher.ts';
import { type Counters, MemoryCounters } from './lib/counters.ts';

/** Longer than the primary's own wait on a stuck worker (5 s), so its answer comes first. */
const SETTLE_TIMEOUT_MS = 6_000;
/** A count is part of a sign-in or a form post: a primary this slow is counted without, here. */
const COUNT_TIMEOUT_MS = 1_000;

/**
 * A cluster worker's side of the IPC channel to its primary: the questions it asks (a change's
 * catch-up across the node, shared counts), the commits it reports, and what the primary asks of
 * it (catching up with the outbox, its figures, stopping).
 */
export class PrimaryLink {
  private nextId = 0;
  private readonly waiting = new Map<number, (value: unknown) => void>();
  private dispatcher: Dispatcher | null = null;
  private readonly handlers: ((message: ToWorker) => void)[] = [];

  constructor(private readonly send: (message: FromWorker) => void) {}

  /** Takes the primary's messages: call once, with the process's `message` events. */
  receive(message: ToWorker) {
    if (message.type === 'wharf:answer') this.waiting.get(message.id)?.(message.value);
    else if (message.type === 'wharf:catch-up') void this.catchUp(message.id, message.seq);
    else if (message.type === 'wharf:wake') {
      if (message.signal === 'events') void this.dispatcher?.wake();
    } else for (const handle of this.handlers) handle(message);
  }

  /** The primary's other messages (scrape, stop), for the worker's own loop. */
  onMessage(handle: (message: ToWorker) => void) {
    this.handlers.push(handle);
  }

  /** The dispatcher the primary's catch-ups and wakes are for. */
  follow(dispatcher: Dispatcher) {
    this.dispatcher = dispatcher;
  }

  /** Reports a commit of outbox events or jobs: the primary sends the jobs and wakes the other workers. */
  committed(signal: CommitSignal) {
    this.send({ type: 'wharf:committed', signal });
  }

  /** Resolves once the node's other workers followed the outbox to `seq`, or the wait timed out (false). */
  async settle(seq: number): Promise<boolean> {
    return (await this.ask({ kind: 'settle', seq }, SETTLE_TIMEOUT_MS)) === true;
  }

  /** Counts kept by the primary for the whole node; this process's own while the primary does not answer. */
  counters(): Counters {
    return new PrimaryCounters((question) => this.ask(question, COUNT_TIMEOUT_MS));
  }

  /** Asks the primary; its answer, or undefined when none came within `timeoutMs`. */
  private ask(question: PrimaryQuestion, timeoutMs: number): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      const done = (value: unknown) => {
        clearTimeout(timer);
        this.waiting.delete(id);
        resolve(value);
      };
      const timer = setTimeout(() => done(undefined), timeoutMs);
      this.waiting.set(id, done);
      this.send({ type: 'wharf:ask', id, question });
    });
  }

  private async catchUp(id: number, seq: number) {
    await this.dispatcher?.settled(seq, SETTLE_TIMEOUT_MS);
    this.send({ type: 'wharf:caught-up', id });
  }
}

/**
 * Counters of the whole node, kept in the primary's memory and asked over IPC. An answer that does
 * not come (a primary busy past COUNT_TIMEOUT_MS) is counted in this process's memory instead, as
 * RedisCounters does while Redis is away: a count is never dropped, and the larger one holds.
 */
class PrimaryCounters implements Counters {
  private readonly local = new MemoryCounters();

  constructor(private readonly ask: (question: PrimaryQuestion) => Promise<unknown>) {}

  async add(key: string, windowMs: number, sliding = false) {
    const shared = await this.ask({ kind: 'count', op: 'add', key, windowMs, sliding });
    if (typeof shared !== 'number') return this.local.add(key, windowMs, sliding);
    return Math.max(shared, await this.local.read(key));
  }

  async read(key: string) {
    const shared = await this.ask({ kind: 'count', op: 'read', key });
    return Math.max(typeof shared === 'number' ? shared : 0, await this.local.read(key));
  }

  async clear(key: string) {
    await this.local.clear(key);
    await this.ask({ kind: 'count', op: 'clear', key });
  }

  async reachable() {}

  async close() {}
}

/** The primary's answer to a count question, from the node's counters. */
export function answerCount(counters: Counters, question: Extract<PrimaryQuestion, { kind: 'count' }>) {
  if (question.op === 'add') return counters.add(question.key, question.windowMs, question.sliding);
  if (question.op === 'read') return counters.read(question.key);
  return counters.clear(question.key).then(() => null);
}
