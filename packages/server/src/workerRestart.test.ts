import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, signedIn, type TestClient } from '../test/client.ts';
import { freePort, testPasswordHash } from '../test/harness.ts';
import {
  childPids,
  isAlive,
  siteGet,
  startWharf,
  stopWharf,
  untilWorkersServe,
  type WharfProcess,
  waitForApi,
} from '../test/processes.ts';
import { uploadRelease } from '../test/world.ts';

/**
 * Kills in a row: each waits for a worker to start again, seconds on a busy machine, so the
 * count is what a loaded CI machine finishes well within the test's time (every 10th is logged).
 */
const ROUNDS = 24;

describe('a cluster whose workers die', () => {
  let dataDir: string;
  let port: number;
  let url: string;
  let wharf: WharfProcess;
  let owner: TestClient;
  let siteId: string;
  let host: string;
  let branchPath: string;
  const releases: { id: string; content: string }[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'wharf-restart-'));
    port = await freePort();
    url = `http://127.0.0.1:${port}`;
    wharf = await startWharf(dataDir, port, {
      WHARF_WORKERS: '2',
      WHARF_USERS: `owner:${await testPasswordHash()}`,
      LOG_LEVEL: 'info',
    });
    await waitForApi(url);
    owner = await signedIn(url, 'owner');
    const org = expectStatus(await owner.post('/api/v1/orgs', { name: 'Acme' }), 200);
    const team = expectStatus(await owner.post(`/api/v1/orgs/${org._id}/teams`, { name: 'Web' }), 200);
    const site = expectStatus(await owner.post(`/api/v1/teams/${team._id}/sites`, { name: 'flipped' }), 200);
    siteId = site._id;
    host = `${site.name}.localhost:${port}`;
    for (const content of ['blue', 'green']) {
      const release = await uploadRelease(owner, siteId, content, ['main'], [{ name: 'index.html', content }]);
      releases.push({ id: release._id, content });
    }
    branchPath = `/api/v1/sites/${siteId}/branches/${site.mainBranch}/release`;
  });
  afterAll(async () => {
    if (wharf) await stopWharf(wharf);
    await rm(dataDir, { recursive: true, force: true });
  });

  /**
   * Points the main branch at a release through the API: its status, or null when the connection
   * was cut (a killed worker takes the connections it held with it).
   */
  async function flip(release: { id: string }) {
    const answer = await fetch(url + branchPath, {
      method: 'PUT',
      headers: { cookie: owner.cookieHeader, 'content-type': 'application/json' },
      body: JSON.stringify({ release: release.id }),
      signal: AbortSignal.timeout(10_000),
    }).catch(() => null);
    return answer?.status ?? null;
  }

  /** Flips the branch between the two releases until told to stop; answers the statuses seen. */
  function flipping() {
    let stopped = false;
    const statuses: (number | null)[] = [];
    const loop = (async () => {
      for (let i = 0; !stopped; i++) statuses.push(await flip(releases[i % 2]!));
    })();
    return async () => {
      stopped = true;
      await loop;
      return statuses;
    };
  }

  it(`survives ${ROUNDS} kill -9 of a worker during branch flips, serving the current release after each respawn`, async () => {
    const startedAt = performance.now();
    for (let round = 0; round < ROUNDS; round++) {
      if (round % 10 === 0)
        console.info(`round ${round} of ${ROUNDS} at ${Math.round(performance.now() - startedAt)} ms`);
      const stopFlipping = flipping();
      await sleep(20 + (round % 5) * 15);
      const workers = childPids(wharf.child.pid!);
      expect(workers).toHaveLength(2);
      const victim = workers[round % 2]!;
      process.kill(victim, 'SIGKILL');
      await untilWorkersServe(wharf, 2, [victim]);
      const statuses = await stopFlipping();
      // The API answers every flip that reached it: those through the killed worker were reset.
      expect(statuses.filter((status) => status !== null && status !== 200)).toEqual([]);

      const current = releases[round % 2]!;
      for (let attempt = 0; (await flip(current)) !== 200; attempt++) expect(attempt).toBeLessThan(5);
      // Each fresh connection goes to whichever worker takes it first (the new one as often as
      // not): every answer, from either, is the current release.
      const answers = [];
      for (let i = 0; i < 12; i++) answers.push(await siteGet(port, host));
      expect(answers.map((answer) => answer.text)).toEqual(Array(12).fill(current.content));
    }
    expect(isAlive(wharf.child)).toBe(true);
  }, 900_000);
});
