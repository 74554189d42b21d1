import type { EventName } from '@wharf/contract';
import type { Executor } from '../db/schema.ts';
import { newId, now } from '../lib/ids.ts';

export interface DomainEvent {
  name: EventName;
  /** Who did it; null for the system itself. */
  actorId: string | null;
  orgId?: string | null;
  teamId?: string | null;
  siteId?: string | null;
  userId?: string | null;
  data: Record<string, unknown>;
}

/**
 * Writes an event in the caller's transaction (the outbox): it is committed with the change it
 * describes, or not at all, so a crash never loses nor invents one.
 */
export async function recordEvent(trx: Executor, event: DomainEvent) {
  await trx
    .insertInto('events')
    .values({
      id: newId(),
      name: event.name,
      org_id: event.orgId ?? null,
      team_id: event.teamId ?? null,
      site_id: event.siteId ?? null,
      user_id: event.userId ?? null,
      actor_id: event.actorId,
      data: JSON.stringify(event.data),
      created_at: now(),
      dispatched_at: null,
    })
    .execute();
}
