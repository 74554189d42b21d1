import { AsyncLocalStorage } from 'node:async_hooks';
import type { EventName } from '@wharf/contract';
import { signalAtCommit } from '../db/commitSignals.ts';
import type { Database, Executor } from '../db/schema.ts';
import { newId, now } from '../lib/ids.ts';

export type OutboxEvent = Database['events'];

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

/** The last event a request recorded, so its answer can wait until that event reached the edges. */
interface RecordedByRequest {
  lastSeq: number;
}
const recordedByRequest = new AsyncLocalStorage<RecordedByRequest>();

/** Runs `work` (a request's handler) and answers what it produced and the last event it recorded. */
export async function trackEvents<T>(work: () => Promise<T>): Promise<{ result: T; lastSeq: number }> {
  const recorded: RecordedByRequest = { lastSeq: 0 };
  const result = await recordedByRequest.run(recorded, work);
  return { result, lastSeq: recorded.lastSeq };
}

/**
 * The next number of the outbox. Updating the counter row locks it until the transaction ends,
 * so a transaction that records an event waits for the previous one to commit: numbers follow
 * commit order, and a reader that has seen number n has seen every number below it.
 */
async function nextSeq(trx: Executor): Promise<number> {
  const row = await trx
    .updateTable('event_sequence')
    .set((eb) => ({ value: eb('value', '+', 1) }))
    .where('name', '=', 'events')
    .returning('value')
    .executeTakeFirstOrThrow();
  return Number(row.value);
}

/**
 * Writes an event in the caller's transaction (the outbox): it is committed with the change it
 * describes, or not at all, so a crash never loses nor invents one. Record events last in a
 * transaction: from here to its commit, other transactions that record events wait.
 */
export async function recordEvent(trx: Executor, event: DomainEvent) {
  const seq = await nextSeq(trx);
  await trx
    .insertInto('events')
    .values({
      id: newId(),
      seq,
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
  await signalAtCommit(trx, 'events');
  const recorded = recordedByRequest.getStore();
  if (recorded) recorded.lastSeq = Math.max(recorded.lastSeq, seq);
}
