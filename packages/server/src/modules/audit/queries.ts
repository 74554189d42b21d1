import type { AuditEntry } from '@wharf/contract';
import type { Db } from '../../db/schema.ts';
import { consoleLink, describeEvent } from '../../events/describe.ts';
import { lookUpEventNames } from '../../events/nameBook.ts';
import type { OutboxEvent } from '../../events/outbox.ts';
import { readJson } from '../../lib/json.ts';
import { type Page, pageOf } from '../../lib/paging.ts';

export interface AuditFilters {
  teamId?: string | undefined;
  siteId?: string | undefined;
  actorId?: string | undefined;
  event?: string | undefined;
}

/**
 * The events of one organization, newest first. Events of users (API tokens) carry no
 * organization and never show. No event's data holds a secret (hook secrets, token values and
 * passwords stay out of the outbox), so the data is shown as recorded.
 */
export async function listAuditLog(db: Db, orgId: string, filters: AuditFilters, page: Page) {
  let query = db.selectFrom('events').selectAll().where('org_id', '=', orgId);
  if (filters.teamId) query = query.where('team_id', '=', filters.teamId);
  if (filters.siteId) query = query.where('site_id', '=', filters.siteId);
  if (filters.actorId) query = query.where('actor_id', '=', filters.actorId);
  if (filters.event) query = query.where('name', '=', filters.event);
  // Newest first in commit order (the outbox's sequence), not by clock.
  const { items, count } = await pageOf(
    query,
    page,
    (q) => q.orderBy('seq', 'desc'),
    (row) => row,
  );
  const book = await lookUpEventNames(db, items);
  return { items: items.map((row) => toAuditEntry(row, book)), count };
}

function toAuditEntry(row: OutboxEvent, book: Awaited<ReturnType<typeof lookUpEventNames>>): AuditEntry {
  return {
    _id: row.id,
    event: row.name,
    createdAt: row.created_at,
    actor: row.actor_id ? { _id: row.actor_id, name: book.names.get(row.actor_id) ?? 'Someone' } : null,
    teamId: row.team_id,
    siteId: row.site_id,
    summary: describeEvent(row, book),
    link: consoleLink(row, book),
    data: readJson<Record<string, unknown>>(row.data),
  };
}
