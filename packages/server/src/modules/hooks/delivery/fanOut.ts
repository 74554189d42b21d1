import type { Database, Transaction } from '../../../db/schema.ts';
import type { DurableConsumer } from '../../../events/dispatcher.ts';
import type { OutboxEvent } from '../../../events/outbox.ts';
import { enqueueJob } from '../../../jobs/queue.ts';
import { readJson } from '../../../lib/json.ts';
import { envelopeOf } from './envelope.ts';

type HookRow = Database['hooks'];

/** The hooks that hear of an event where it happened: its site's, its team's, its organization's, its user's. */
function ownersOf(event: OutboxEvent): [context: string, ownerId: string | null][] {
  return [
    ['sites', event.site_id],
    ['teams', event.team_id],
    ['orgs', event.org_id],
    ['users', event.user_id],
  ];
}

async function hooksOf(trx: Transaction, events: OutboxEvent[]): Promise<HookRow[]> {
  const owners = new Set(events.flatMap((event) => ownersOf(event).map(([, id]) => id)).filter(Boolean) as string[]);
  if (owners.size === 0) return [];
  return trx
    .selectFrom('hooks')
    .selectAll()
    .where('owner_id', 'in', [...owners])
    .execute();
}

/**
 * Turns events into hook deliveries: one job per event and subscribed hook, queued in the
 * transaction that marks the events dispatched, so a crash neither loses nor repeats one.
 */
export const hookFanOut: DurableConsumer = {
  name: 'hooks',
  async consume(trx, events) {
    const hooks = await hooksOf(trx, events);
    if (hooks.length === 0) return;
    const byOwner = new Map<string, HookRow[]>();
    for (const hook of hooks) {
      const owner = `${hook.context}:${hook.owner_id}`;
      byOwner.set(owner, [...(byOwner.get(owner) ?? []), hook]);
    }
    for (const event of events) {
      for (const [context, ownerId] of ownersOf(event)) {
        for (const hook of byOwner.get(`${context}:${ownerId}`) ?? []) {
          if (!readJson<string[]>(hook.events).includes(event.name)) continue;
          await enqueueJob(trx, { kind: 'hook', hookId: hook.id, eventId: event.id, payload: envelopeOf(event) });
        }
      }
    }
  },
};
