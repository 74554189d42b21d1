import type { Db } from '../db/schema.ts';
import { readJson } from '../lib/json.ts';
import type { RoutingTable } from './routingTable.ts';

/** How far back each poll looks: transactions may commit events out of id order. */
const OVERLAP_MS = 10_000;

/**
 * Follows the outbox and reloads the sites its events touch. Every process follows it on its own,
 * so an edge learns of changes made by any API process sharing the database.
 */
export class RoutingSync {
  private readonly seen = new Map<string, number>();
  private since = new Date(0).toISOString();
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly db: Db,
    private readonly table: RoutingTable,
    private readonly onSitesChanged: (siteIds: string[]) => void = () => {},
  ) {}

  async start() {
    this.since = new Date().toISOString();
    await this.table.loadAll(this.db);
  }

  /** Applies events committed since the last call; concurrent callers share one pass and one follow-up. */
  refresh(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.pass().finally(() => {
      this.running = null;
      if (this.again) {
        this.again = false;
        void this.refresh();
      }
    });
    return this.running;
  }

  private async pass() {
    const started = Date.now();
    const events = await this.db
      .selectFrom('events')
      .select(['id', 'name', 'site_id', 'data', 'created_at'])
      .where('created_at', '>=', this.since)
      .orderBy('created_at')
      .execute();
    const sites = new Set<string>();
    for (const event of events) {
      if (this.seen.has(event.id)) continue;
      this.seen.set(event.id, Date.parse(event.created_at));
      if (event.site_id) sites.add(event.site_id);
      if (event.name === 'team_deleted')
        for (const id of readJson<{ siteIds?: string[] }>(event.data).siteIds ?? []) sites.add(id);
    }
    for (const siteId of sites) await this.table.reloadSite(this.db, siteId);
    if (sites.size > 0) this.onSitesChanged([...sites]);
    this.since = new Date(started - OVERLAP_MS).toISOString();
    for (const [id, at] of this.seen) if (at < started - 2 * OVERLAP_MS) this.seen.delete(id);
  }
}
