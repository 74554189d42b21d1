import { signalAtCommit } from '../db/commitSignals.ts';
import type { Database, Executor } from '../db/schema.ts';
import { newId, now } from '../lib/ids.ts';

export type Job = Database['jobs'];
export const JOB_KINDS = ['hook', 'mail', 'variants', 'forgeReport'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

export interface NewJob {
  kind: JobKind;
  hookId?: string | null;
  eventId?: string | null;
  /** What the sender needs, as JSON; seal anything secret before it comes here. */
  payload: unknown;
}

/**
 * Queues something to leave Wharf, in the caller's transaction: it is sent only if the change that
 * asked for it commits, and it survives a crash until sent.
 */
export async function enqueueJob(trx: Executor, job: NewJob): Promise<string> {
  const id = newId();
  const time = now();
  await trx
    .insertInto('jobs')
    .values({
      id,
      kind: job.kind,
      hook_id: job.hookId ?? null,
      event_id: job.eventId ?? null,
      payload: JSON.stringify(job.payload),
      state: 'pending',
      attempts: 0,
      next_attempt_at: time,
      lease_until: null,
      last_error: null,
      created_at: time,
      finished_at: null,
    })
    .execute();
  await signalAtCommit(trx, 'jobs');
  return id;
}
