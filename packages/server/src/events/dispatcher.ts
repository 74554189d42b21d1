import type { Db, Transaction } from '../db/schema.ts';
import { now } from '../lib/ids.ts';
import { PassLoop } from '../lib/passLoop.ts';
import type { OutboxEvent } from './outbox.ts';

/** Something in this process that follows the outbox: the routing table, the browsers' sockets. */
export interface LiveConsumer {
  name: string;
  consume(events: OutboxEvent[]): Promise<void>;
}

/**
 * Something that must see every event once even across crashes (hook deliveries): it writes what
 * it derives in the transaction that marks the events dispatched, so both happen or neither does.
 */
export interface DurableConsumer {
  name: string;
  consume(trx: Transaction, events: OutboxEvent[]): Promise<void>;
}

interface DispatcherLog {
  error(details: Record<string, unknown>, message: string): void;
}

const BATCH = 500;
const DURABLE_BATCH = 100;
/** Commits of this process wake the dispatcher at once; the poll catches those of other processes. */
const POLL_EVERY_MS = 1_000;

/**
 * The one reader of the outbox in a process. It reads events in commit order (`seq`) and hands
 * each batch to the live consumers, then to the durable ones, which also mark them dispatched.
 * Passes never overlap: a wake during a pass runs one more pass after it.
 */
export class Dispatcher {
  private cursor = 0;
  private readonly live: LiveConsumer[] = [];
  private readonly durable: DurableConsumer[] = [];
  private readonly afterDurable: (() => void)[] = [];
  private readonly waiters = new Set<{ seq: number; resolve: () => void }>();
  private readonly loop = new PassLoop(() => this.pass());

  constructor(
    private readonly db: Db,
    private readonly log: DispatcherLog,
  ) {}

  addLive(consumer: LiveConsumer) {
    this.live.push(consumer);
  }

  addDurable(consumer: DurableConsumer) {
    this.durable.push(consumer);
  }

  /** Called after durable consumers wrote something (the job runner wakes to send it). */
  onDurableWork(listener: () => void) {
    this.afterDurable.push(listener);
  }

  /**
   * Takes the outbox's end as the point live consumers follow from. Call it before they load their
   * state (the routing table), so nothing committed in between is missed.
   */
  async markStart() {
    const row = await this.db
      .selectFrom('events')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .executeTakeFirst();
    this.cursor = Number(row?.seq ?? 0);
  }

  /** Starts following: a first pass now (durable work left by a crash), then the poll. */
  run() {
    this.loop.start(POLL_EVERY_MS);
  }

  /** Dispatches what was committed before this call; never rejects (failures are logged). */
  wake(): Promise<void> {
    return this.loop.wake();
  }

  /**
   * Resolves once the live consumers have handled every event up to `seq` (true), or after
   * `timeoutMs` (false): an answer may wait for its change to reach the edges, never forever.
   */
  settled(seq: number, timeoutMs: number): Promise<boolean> {
    if (this.cursor >= seq) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter = {
        seq,
        resolve: () => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(true);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        resolve(false);
      }, timeoutMs);
      this.waiters.add(waiter);
      void this.wake();
    });
  }

  close(): Promise<void> {
    return this.loop.stop();
  }

  private async pass() {
    await this.livePass().catch((err) => this.log.error({ err }, 'dispatching events failed'));
    await this.durablePass().catch((err) => this.log.error({ err }, 'recording event deliveries failed'));
  }

  private async livePass() {
    for (;;) {
      const events = await this.db
        .selectFrom('events')
        .selectAll()
        .where('seq', '>', this.cursor)
        .orderBy('seq')
        .limit(BATCH)
        .execute();
      if (events.length === 0) return;
      for (const consumer of this.live) {
        // One consumer failing (a database hiccup while reloading a site) must not starve the others.
        await consumer
          .consume(events)
          .catch((err) => this.log.error({ err, consumer: consumer.name }, 'an event consumer failed'));
      }
      this.cursor = Number(events.at(-1)?.seq);
      for (const waiter of this.waiters) if (waiter.seq <= this.cursor) waiter.resolve();
      if (events.length < BATCH) return;
    }
  }

  /** Claims undispatched events, oldest first, and lets the durable consumers record their work. */
  private async durablePass() {
    if (this.durable.length === 0) return;
    let wrote = false;
    for (;;) {
      const claimed = await this.db.transaction().execute(async (trx) => {
        const pending = trx
          .selectFrom('events')
          .select('id')
          .where('dispatched_at', 'is', null)
          .orderBy('seq')
          .limit(DURABLE_BATCH);
        // A second process claiming the same rows waits for this transaction, then finds them taken.
        const events = await trx
          .updateTable('events')
          .set({ dispatched_at: now() })
          .where('id', 'in', pending)
          .where('dispatched_at', 'is', null)
          .returningAll()
          .execute();
        events.sort((a, b) => Number(a.seq) - Number(b.seq));
        for (const consumer of this.durable) await consumer.consume(trx, events);
        return events.length;
      });
      if (claimed > 0) wrote = true;
      if (claimed < DURABLE_BATCH) break;
    }
    if (wrote) for (const listener of this.afterDurable) listener();
  }
}
