import { createHmac } from 'node:crypto';
import type { OutboxEvent } from '../../../events/outbox.ts';
import { readJson } from '../../../lib/json.ts';

/** What a web hook receives as its body, and what every other kind of hook is written from. */
export interface Envelope {
  /** The event's id: the same in every attempt and redelivery, so receivers can drop repeats. */
  id: string;
  event: string;
  createdAt: string;
  data: Record<string, unknown>;
}

/** The event's own data with the ids of where it happened and who did it. */
export function envelopeOf(event: OutboxEvent): Envelope {
  const where = {
    orgId: event.org_id,
    teamId: event.team_id,
    siteId: event.site_id,
    userId: event.user_id,
    actorId: event.actor_id,
  };
  const known = Object.fromEntries(Object.entries(where).filter(([, value]) => value !== null));
  return { id: event.id, event: event.name, createdAt: event.created_at, data: { ...known, ...readJson(event.data) } };
}

/**
 * `X-Wharf-Signature`: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` keyed by the hook's
 * secret. The time is signed with the body, so a receiver that refuses old times refuses replays.
 */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}
