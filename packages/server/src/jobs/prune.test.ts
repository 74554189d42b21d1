import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestServer, type TestServer } from '../../test/harness.ts';
import { newId } from '../lib/ids.ts';
import { pruneFinishedJobs } from './prune.ts';

describe.each(databases)('pruning the job queue on $name', ({ postgres }) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ postgres });
  });
  afterAll(() => server?.close());

  it('deletes what ended over 30 days ago, and never a pending job', async () => {
    const { db } = server.app;
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    const job = (state: 'pending' | 'done' | 'failed', finishedDaysAgo: number | null) => ({
      id: newId(),
      kind: 'mail',
      hook_id: null,
      event_id: null,
      payload: '{}',
      state,
      attempts: 1,
      // A pending job far in the future: the runner leaves it alone during the test.
      next_attempt_at: daysAgo(-1),
      lease_until: null,
      last_error: null,
      created_at: daysAgo(40),
      finished_at: finishedDaysAgo === null ? null : daysAgo(finishedDaysAgo),
    });
    const jobs = [job('done', 31), job('failed', 45), job('done', 2), job('pending', null)];
    await db.insertInto('jobs').values(jobs).execute();
    const attempt = (days: number) => ({
      id: newId(),
      hook_id: 'h',
      event_id: 'e',
      success: 1,
      type: 'ping',
      data: '{}',
      date: daysAgo(days),
      job_id: null,
      attempt: 1,
    });
    await db
      .insertInto('hook_deliveries')
      .values([attempt(31), attempt(1)])
      .execute();

    // The server's own housekeeping may prune at start, concurrently: what is left is what counts.
    await pruneFinishedJobs(db);
    const left = await db
      .selectFrom('jobs')
      .select('id')
      .where(
        'id',
        'in',
        jobs.map((j) => j.id),
      )
      .execute();
    expect(left.map((row) => row.id).sort()).toEqual([jobs[2]!.id, jobs[3]!.id].sort());
    const attemptsLeft = await db.selectFrom('hook_deliveries').select('date').where('hook_id', '=', 'h').execute();
    expect(attemptsLeft).toHaveLength(1);
  });
});
