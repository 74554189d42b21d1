import type { Db } from '../db/schema.ts';
import { type OutboxEvent, OutboxFollower } from '../events/follower.ts';
import { readJson } from '../lib/json.ts';
import type { RoutingTable } from './routingTable.ts';

/** The sites an event touches: its own, or all of a deleted team's. */
function sitesOf(event: OutboxEvent): string[] {
  if (event.name === 'team_deleted') return readJson<{ siteIds?: string[] }>(event.data).siteIds ?? [];
  return event.site_id ? [event.site_id] : [];
}

/**
 * Keeps the routing table current: follows the outbox and reloads each site its events touch, so
 * an edge learns of changes made by any process sharing the database.
 */
export class RoutingSync {
  private readonly follower: OutboxFollower;

  constructor(
    private readonly db: Db,
    private readonly table: RoutingTable,
  ) {
    this.follower = new OutboxFollower(db, async (events) => {
      await this.table.reloadSites(this.db, [...new Set(events.flatMap(sitesOf))]);
    });
  }

  /** Loads every site; events from now on are followed. */
  async start() {
    await this.table.loadAll(this.db);
  }

  refresh(): Promise<void> {
    return this.follower.refresh();
  }
}
