import type { FastifyBaseLogger } from 'fastify';
import type { Chore } from '../cluster/housekeeping.ts';
import type { Db } from '../db/schema.ts';

/** How long finished jobs and hook attempts are kept: long enough to look into a month's deliveries. */
export const KEEP_DELIVERIES_DAYS = 30;

/**
 * Deletes the jobs that ended (sent or given up) and the hook attempts older than the keeping
 * time, so the queue and the Deliveries tabs stay bounded. Pending jobs are never touched.
 */
export async function pruneFinishedJobs(db: Db, at = new Date()) {
  const before = new Date(at.getTime() - KEEP_DELIVERIES_DAYS * 86_400_000).toISOString();
  const jobs = await db
    .deleteFrom('jobs')
    .where('state', '!=', 'pending')
    .where('finished_at', '<', before)
    .executeTakeFirst();
  const attempts = await db.deleteFrom('hook_deliveries').where('date', '<', before).executeTakeFirst();
  return { jobs: Number(jobs.numDeletedRows), attempts: Number(attempts.numDeletedRows) };
}

/** The housekeeping chore that prunes what the job runner finished long ago. */
export const finishedJobsChore = (db: Db, log: FastifyBaseLogger): Chore => ({
  name: 'finished jobs',
  async run({ at }) {
    const pruned = await pruneFinishedJobs(db, at);
    if (pruned.jobs + pruned.attempts > 0) log.info(pruned, 'pruned old jobs and hook deliveries');
  },
});
