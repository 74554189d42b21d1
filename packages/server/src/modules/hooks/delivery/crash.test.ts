import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Hook } from '@wharf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, signedIn, type TestClient } from '../../../../test/client.ts';
import { freePort, SWEEP_TIMEOUT, testPasswordHash } from '../../../../test/harness.ts';
import { exited, startWharf, stopWharf, type WharfProcess, waitForApi } from '../../../../test/processes.ts';
import { startReceiver } from '../../../../test/receiver.ts';
import { openDb } from '../../../db/connection.ts';
import { recordEvent } from '../../../events/outbox.ts';

/** A Wharf process killed with SIGKILL between a commit and the delivery of its event. */
describe('hook deliveries across a killed server', () => {
  let dataDir: string;
  let port: number;
  let url: string;
  let env: Record<string, string>;
  let wharf: WharfProcess;
  let owner: TestClient;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  /** While set, the receiver never answers: an attempt under way when Wharf is killed stays unfinished. */
  let holding = false;
  let site: { _id: string; teamId: string; orgId: string };
  let hook: Hook;

  async function start() {
    wharf = await startWharf(dataDir, port, env);
    await waitForApi(url);
    owner = await signedIn(url, 'owner');
  }

  async function kill() {
    wharf.child.kill('SIGKILL');
    await exited(wharf.child);
  }

  /** The event's jobs once none is left to send: each must be done, and there must be one. */
  async function settledJobs(eventId: string) {
    const db = openDb({ dataDir, databaseUrl: null });
    try {
      // Past the 30 s lease of an attempt that a killed process left unfinished.
      const deadline = Date.now() + 60_000;
      for (;;) {
        const jobs = await db.selectFrom('jobs').selectAll().where('event_id', '=', eventId).execute();
        if (jobs.length > 0 && jobs.every((job) => job.state !== 'pending')) return jobs;
        if (Date.now() > deadline) throw new Error(`jobs of ${eventId} still pending: ${JSON.stringify(jobs)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await db.destroy();
    }
  }

  const receivedIds = () => receiver.requests.map((request) => JSON.parse(request.body).id as string);

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'wharf-crash-hooks-'));
    port = await freePort();
    url = `http://127.0.0.1:${port}`;
    env = {
      WHARF_WORKERS: '2',
      WHARF_USERS: `owner:${await testPasswordHash()}`,
      WHARF_ALLOW_PRIVATE_UPSTREAMS: 'on',
    };
    receiver = await startReceiver(async () => {
      if (holding) await new Promise(() => {});
      return { status: 200 };
    });
    await start();
    const org = expectStatus(await owner.post('/api/v1/orgs', { name: 'Acme' }), 200);
    const team = expectStatus(await owner.post(`/api/v1/orgs/${org._id}/teams`, { name: 'Web' }), 200);
    const created = expectStatus(await owner.post(`/api/v1/teams/${team._id}/sites`, { name: 'crashes' }), 200);
    site = { _id: created._id, teamId: team._id, orgId: org._id };
    const body = { type: 'web', name: 'crash', events: ['site_branch_added'], config: { url: receiver.url } };
    hook = expectStatus(await owner.post(`/api/v1/sites/${site._id}/hooks`, body), 200);
  }, SWEEP_TIMEOUT);
  afterAll(async () => {
    await stopWharf(wharf);
    await receiver.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it(
    'delivers, and has acknowledged once, an event whose server was killed as it answered',
    async () => {
      const before = receiver.requests.length;
      // Killed before the attempt or while it is under way (the receiver holds it unanswered):
      // either way the event ends delivered, and acknowledged once.
      holding = true;
      const answer = owner.post(`/api/v1/sites/${site._id}/branches`, { name: 'killed-at-answer' });
      expectStatus(await answer, 200);
      await kill();
      holding = false;
      await start();
      const db = openDb({ dataDir, databaseUrl: null });
      const event = await db
        .selectFrom('events')
        .select('id')
        .where('name', '=', 'site_branch_added')
        .orderBy('seq', 'desc')
        .executeTakeFirstOrThrow();
      await db.destroy();
      const jobs = await settledJobs(event.id);
      expect(jobs.map((job) => job.state)).toEqual(['done']);
      await receiver.received(before + 1);
      expect(receivedIds().filter((id) => id === event.id)).toHaveLength(1);
    },
    SWEEP_TIMEOUT,
  );

  it(
    'delivers, once, an event committed while no dispatcher ran',
    async () => {
      await kill();
      // A commit the crashed process never dispatched: the outbox row is all there is of it.
      const db = openDb({ dataDir, databaseUrl: null });
      await db.transaction().execute((trx) =>
        recordEvent(trx, {
          name: 'site_branch_added',
          actorId: null,
          orgId: site.orgId,
          teamId: site.teamId,
          siteId: site._id,
          data: { name: 'committed-while-down' },
        }),
      );
      const event = await db
        .selectFrom('events')
        .select(['id', 'dispatched_at'])
        .orderBy('seq', 'desc')
        .executeTakeFirstOrThrow();
      await db.destroy();
      expect(event.dispatched_at).toBeNull();
      await start();
      const jobs = await settledJobs(event.id);
      expect(jobs).toHaveLength(1);
      expect(jobs[0]).toMatchObject({ state: 'done', attempts: 1, hook_id: hook._id });
      expect(receivedIds().filter((id) => id === event.id)).toHaveLength(1);
    },
    SWEEP_TIMEOUT,
  );
});
