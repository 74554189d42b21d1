import type { Database, Db } from '../db/schema.ts';

export type OutboxEvent = Database['events'];

/** How far back each poll looks: concurrent transactions may commit events out of id order. */
const OVERLAP_MS = 10_000;

/**
 * Reads the outbox as it grows and hands each new event once to `deliver`. Every process follows
 * the outbox on its own, so changes made through any process reach the clients of all of them.
 */
export class OutboxFollower {
  private readonly seen = new Map<string, number>();
  private since = new Date().toISOString();
  private running: Promise<void> | null = null;
  private next: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly deliver: (events: OutboxEvent[]) => Promise<void>,
  ) {}

  /**
   * Reads what was committed before this call. A pass already under way may have read before the
   * caller's commit, so callers arriving during a pass share the one that follows it.
   */
  refresh(): Promise<void> {
    if (!this.running) return this.start();
    this.next ??= this.running
      .catch(() => {})
      .then(() => {
        this.next = null;
        return this.start();
      });
    return this.next;
  }

  private start() {
    this.running = this.pass().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async pass() {
    const started = Date.now();
    const rows = await this.db
      .selectFrom('events')
      .selectAll()
      .where('created_at', '>=', this.since)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const fresh = rows.filter((row) => !this.seen.has(row.id));
    for (const row of fresh) this.seen.set(row.id, Date.parse(row.created_at));
    if (fresh.length > 0) await this.deliver(fresh);
    this.since = new Date(started - OVERLAP_MS).toISOString();
    for (const [id, at] of this.seen) if (at < started - 2 * OVERLAP_MS) this.seen.delete(id);
  }
}
