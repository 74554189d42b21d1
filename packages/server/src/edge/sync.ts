import type { OutboxEvent } from '../events/outbox.ts';
import { readJson } from '../lib/json.ts';

/** The sites whose routing an event may change: its own, or all of a deleted team's. */
function sitesOf(event: OutboxEvent): string[] {
  if (event.name === 'team_deleted') return readJson<{ siteIds?: string[] }>(event.data).siteIds ?? [];
  return event.site_id ? [event.site_id] : [];
}

/** The sites a batch of outbox events touches, each once. */
export function sitesTouchedBy(events: OutboxEvent[]): string[] {
  return [...new Set(events.flatMap(sitesOf))];
}
