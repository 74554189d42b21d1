import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sha256, tarGz, uploadForm } from '../../test/archives.ts';
import { expectStatus, signedIn, TestClient } from '../../test/client.ts';
import { testDatabaseUrl, testRedisUrl, testUsersSetting } from '../../test/harness.ts';
import { type LoadedNode, MixedLoad, nameOf, type Outcome, type Seen, summary, tally } from '../../test/mixedLoad.ts';
import { type OwnDatabase, ownDatabase } from '../../test/ownDatabase.ts';
import {
  childPids,
  connectionsToEachWorker,
  type StartedNode,
  siteGet,
  startReadyNode,
  stopWharf,
} from '../../test/processes.ts';
import { type RedisPeer, startRedisPeer } from '../../test/redisPeer.ts';
import { type S3Peer, startS3Peer } from '../../test/s3Peer.ts';
import { siteRequest } from '../../test/siteClient.ts';
import { blobKey } from '../releaseFiles/blobKeys.ts';

/** How long an outage lasts: an operator's restart of the dependency, or a fail-over. */
const OUTAGE_MS = 20_000;
/** How soon after a dependency is back everything works again by itself; each case asserts it. */
const RECOVERED_WITHIN_MS = 15_000;
/** How long any answer may take while a dependency is away: a refusal comes quickly, never a hang. */
const ANSWER_WITHIN_MS = 10_000;
/**
 * The longest a dependency may hold a call before it counts as away: the store's two tries of its
 * 3 s timeout with the back-off between them (PostgreSQL's connection timeout is 5 s).
 */
const DEPENDENCY_BOUND_MS = 7_000;
const STORE_PREFIX = 'bad-day';

const services = testDatabaseUrl && testRedisUrl;
if (!services)
  console.warn(
    "!! The operator's bad day suite needs PostgreSQL and Redis (WHARF_TEST_DATABASE_URL, WHARF_TEST_REDIS_URL): SKIPPED",
  );

/**
 * An operator's bad day, as the README's several nodes run it: two nodes that answer the API and
 * the sites (one of two worker processes) and a worker node, all `npm start` processes, on a
 * PostgreSQL database, a redis-server and an S3 server of this test's own. Under a mixed load of
 * deploys, API reads and byte-checked site reads, PostgreSQL restarts, Redis goes away, the store
 * hangs and a worker process is killed, one after the other. Each case asserts what users got
 * meanwhile, that every process lived on, and that everything worked again by itself within
 * RECOVERED_WITHIN_MS; the last that no release lost a file.
 */
describe.skipIf(!services)("an operator's bad day under load", () => {
  let database: OwnDatabase;
  let redis: RedisPeer;
  let s3: S3Peer;
  const dataDirs: string[] = [];
  const nodes: StartedNode[] = [];
  const loaded: LoadedNode[] = [];
  let load: MixedLoad;
  let siteId: string;

  async function startNode(name: string, env: Record<string, string>) {
    const node = await startReadyNode(name, {
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      ...s3.env(STORE_PREFIX),
      WHARF_SECRET: 'the same secret on every node of this test',
      WHARF_USERS: await testUsersSetting(),
      ...env,
    });
    dataDirs.push(node.dataDir);
    return node;
  }

  /** Every process of every node, by id: none may exit or be replaced through a dependency's outage. */
  const processes = () =>
    nodes.flatMap((node) => [node.process.child.pid!, ...childPids(node.process.child.pid!)]).sort();
  const logs = () => nodes.map((node) => node.process.stdout() + node.process.stderr()).join('\n');
  /** Where each node's output stood when the running case began: its failure shows what came after. */
  let caseStart: { stdout: number; stderr: number }[] = [];
  const markCaseStart = () => {
    caseStart = nodes.map((node) => ({ stdout: node.process.stdout().length, stderr: node.process.stderr().length }));
  };
  const logsOfCase = () =>
    nodes
      .map((node, i) => {
        const from = caseStart[i] ?? { stdout: 0, stderr: 0 };
        return `${node.name}:\n${node.process.stdout().slice(from.stdout)}${node.process.stderr().slice(from.stderr)}`;
      })
      .join('\n');

  beforeAll(async () => {
    [database, redis, s3] = await Promise.all([ownDatabase('badday'), startRedisPeer(), startS3Peer()]);
    nodes.push(await startNode('node-a', { WHARF_ROLE: 'api,edge', WHARF_WORKERS: '2' }));
    nodes.push(
      await startNode('node-b', { WHARF_ROLE: 'api,edge', WHARF_WORKERS: '1' }),
      await startNode('node-w', { WHARF_ROLE: 'worker' }),
    );
    const owner = await signedIn(nodes[0]!.url, 'owner');
    const org = expectStatus(await owner.post('/api/v1/orgs', { name: 'Acme' }), 200);
    const team = expectStatus(await owner.post(`/api/v1/orgs/${org._id}/teams`, { name: 'Web' }), 200);
    siteId = expectStatus(await owner.post(`/api/v1/teams/${team._id}/sites`, { name: 'busy' }), 200)._id;
    const token = expectStatus(await owner.post(`/api/v1/sites/${siteId}/tokens`, { name: 'ci' }), 200).value;
    for (const node of nodes.slice(0, 2))
      loaded.push({
        name: node.name,
        port: node.port,
        owner: await signedIn(node.url, 'owner'),
        deployer: new TestClient(node.url, token),
      });
    const steadyFiles = new Map<string, Buffer>([
      ['/', Buffer.from('<h1>steady</h1>'.repeat(100))],
      ['/app.js', randomBytes(40 * 1024)],
      ['/video.bin', randomBytes(2 * 1024 * 1024)],
    ]);
    const archive = await tarGz([...steadyFiles].map(([file, content]) => ({ name: nameOf(file), content })));
    const steady = expectStatus(
      await owner.request('POST', `/api/v1/sites/${siteId}/releases`, uploadForm(archive, 'steady', ['steady'])),
      200,
    );
    load = new MixedLoad(loaded, siteId, { host: new URL(steady.deployedBranches[0].url).host, files: steadyFiles });
    // Every edge process reads the steady files once before the faults, as visitors would have:
    // over a connection each worker holds, since the kernel picks the worker of a new connection.
    for (const [node, workerCount] of [
      [nodes[0]!, 2],
      [nodes[1]!, 1],
    ] as const) {
      const workers = await connectionsToEachWorker(node.process, node.port, workerCount);
      try {
        for (const agent of workers.agents)
          for (const path of steadyFiles.keys())
            expect((await siteGet(node.port, load.steadyHost, path, agent)).status).toBe(200);
      } finally {
        workers.close();
      }
    }
  }, 180_000);
  afterAll(async () => {
    await Promise.all(nodes.map((node) => stopWharf(node.process)));
    await Promise.all([redis?.close(), s3?.close()]);
    await database?.drop();
    await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  /** Runs the load through `fault` (which ends with the dependency back) and a few seconds after. */
  async function underLoad(fault: () => Promise<void>): Promise<Seen> {
    markCaseStart();
    const stop = load.start();
    await sleep(2_000);
    try {
      await fault();
    } finally {
      await sleep(1_000);
    }
    return stop();
  }

  /** How long until every node answers the API, a deploy through each works, and every node reports its dependencies ok. */
  async function recoveredAfter() {
    const startedAt = performance.now();
    await vi.waitFor(
      async () => {
        for (const node of loaded) {
          expect((await load.readApi(node)).status).toBe(200);
          expect((await load.deploy(node)).status).toBe(200);
          // The large file comes from the store at every read.
          expect((await load.readSteady(node)).every(right)).toBe(true);
        }
        for (const node of nodes) {
          const { checks } = (await (await fetch(`${node.url}/readyz`)).json()) as { checks: Record<string, string> };
          expect(checks).toEqual({ database: 'ok', redis: 'ok', storage: 'ok' });
        }
      },
      { timeout: RECOVERED_WITHIN_MS * 2, interval: 250 },
    );
    return performance.now() - startedAt;
  }

  /**
   * What users got: each outcome one of those `allowed` for its kind, and each refusal quick:
   * within ANSWER_WITHIN_MS, or on a busy machine, where the work itself takes seconds (a deploy
   * receives and unpacks its archive before it reaches the store), within the slowest success of
   * the same kind plus the dependency's own bound. A hang (no answer in 30 s) is status -1, refused above.
   */
  function expectOnly(outcomes: Outcome[], allowed: (outcome: Outcome) => boolean) {
    // The nodes' warnings and errors come with a failure: they tell where an answer went missing.
    expect(tally(outcomes.filter((outcome) => !allowed(outcome))), logsOfCase().slice(-30_000)).toEqual({});
    const slowestRight = Math.max(0, ...outcomes.filter(right).map((outcome) => outcome.ms));
    const limit = Math.max(ANSWER_WITHIN_MS, slowestRight + DEPENDENCY_BOUND_MS);
    const slowRefusals = outcomes.filter((outcome) => !right(outcome) && outcome.ms > limit);
    expect(
      slowRefusals.map((o) => `${o.node} ${o.what} ${o.status} ${Math.round(o.ms)} ms (limit ${Math.round(limit)} ms)`),
    ).toEqual([]);
  }
  const right = (outcome: Outcome) => outcome.status === 200 && outcome.right;
  const refused = (code: string) => (outcome: Outcome) => outcome.status === 503 && outcome.code === code;

  /** Records a fault's figures and asserts its recovery. */
  async function recovered(fault: string, seen: Seen, before: number[]) {
    expect(processes(), logs()).toEqual(before);
    const recoveryMs = await recoveredAfter();
    console.info(`${fault}: ${summary(seen)}; all working again ${Math.round(recoveryMs)} ms after its return`);
    expect(recoveryMs).toBeLessThan(RECOVERED_WITHIN_MS);
  }

  it('PostgreSQL restarting, then away: sites served whole, the API and deploys refused quickly, back by itself', async () => {
    const before = processes();
    const seen = await underLoad(async () => {
      await database.terminateFor(5_000);
      await database.allowConnections(false);
      try {
        await database.terminateFor(OUTAGE_MS - 5_000);
      } finally {
        await database.allowConnections(true);
      }
    });
    expectOnly(seen.sites, right);
    expectOnly(seen.api, (outcome) => right(outcome) || refused('DATABASE_UNAVAILABLE')(outcome));
    expectOnly(seen.deploys, (outcome) => right(outcome) || refused('DATABASE_UNAVAILABLE')(outcome));
    expect(seen.api.filter(refused('DATABASE_UNAVAILABLE')).length).toBeGreaterThan(0);
    await recovered('PostgreSQL restart', seen, before);
  }, 240_000);

  it('Redis away: nothing users do notices', async () => {
    const before = processes();
    const seen = await underLoad(async () => {
      await redis.stop();
      try {
        await sleep(OUTAGE_MS);
      } finally {
        await redis.start();
      }
    });
    expectOnly(seen.sites, right);
    expectOnly(seen.api, right);
    expectOnly(seen.deploys, right);
    await recovered('Redis outage', seen, before);
  }, 240_000);

  it('the store hanging: files in memory served, others and deploys refused quickly, back by itself', async () => {
    const before = processes();
    const seen = await underLoad(async () => {
      s3.pause();
      try {
        await sleep(OUTAGE_MS);
      } finally {
        s3.resume();
      }
    });
    // The edge's 503 page (no code: a page for visitors) for a file it must read from the store: the
    // large one always, a small one where this process had not read it before (which worker takes
    // a connection is the kernel's choice). A small file a process holds is served from memory.
    // The large one streams from the store: one whose store went silent midway is cut, never
    // answered short (the edge's bound on a store's silence).
    const cutMidway = (outcome: Outcome) => outcome.what === '/video.bin' && outcome.code === 'ANSWER_CUT';
    expectOnly(seen.sites, (outcome) => right(outcome) || outcome.status === 503 || cutMidway(outcome));
    const small = seen.sites.filter((outcome) => outcome.what !== '/video.bin');
    expect(small.filter(right).length).toBeGreaterThan(0);
    expectOnly(seen.api, right);
    expectOnly(seen.deploys, (outcome) => right(outcome) || refused('STORE_UNAVAILABLE')(outcome));
    await recovered('Store outage', seen, before);
  }, 240_000);

  it('a worker process killed: its requests end at once, a new one serves, nothing else notices', async () => {
    const [nodeA] = nodes as [StartedNode];
    const workers = childPids(nodeA.process.child.pid!);
    const seen = await underLoad(async () => {
      process.kill(workers[0]!, 'SIGKILL');
      await vi.waitFor(
        () => expect(childPids(nodeA.process.child.pid!).filter((pid) => !workers.includes(pid))).toHaveLength(1),
        {
          timeout: 30_000,
          interval: 100,
        },
      );
    });
    // A request in flight on the killed process is reset (status 0), or cut after its head (a
    // download); every other one is right.
    const cut = (outcome: Outcome) =>
      outcome.node === 'node-a' && (outcome.status === 0 || outcome.code === 'ANSWER_CUT');
    expectOnly(seen.sites, (outcome) => right(outcome) || cut(outcome));
    expectOnly(seen.api, (outcome) => right(outcome) || cut(outcome));
    expectOnly(seen.deploys, (outcome) => right(outcome) || cut(outcome));
    expect([...seen.sites, ...seen.api, ...seen.deploys].filter(cut).length).toBeLessThan(20);
    const recoveryMs = await recoveredAfter();
    console.info(`Worker kill: ${summary(seen)}; all working again ${Math.round(recoveryMs)} ms after`);
  }, 240_000);

  it('lost nothing: every file of every release it said it made is in the store and served whole by both nodes', async () => {
    expect(load.deployed.length).toBeGreaterThan(10);
    const keys = new Set(await s3.keys(STORE_PREFIX));
    const missing = load.deployed.flatMap((release) =>
      [...release.files]
        .filter(([, content]) => !keys.has(blobKey(sha256(content))))
        .map(([file]) => `${release.id}${file}`),
    );
    expect(missing).toEqual([]);
    const wrong: string[] = [];
    for (const release of load.deployed)
      for (const node of loaded)
        for (const [file, content] of release.files) {
          const answer = await siteRequest(node.port, release.host, file);
          if (answer.status !== 200 || !answer.body.equals(content))
            wrong.push(`${node.name} ${release.host}${file} ${answer.status}`);
        }
    expect(wrong).toEqual([]);
    console.info(
      `Nothing lost: ${load.deployed.length} releases, ${load.deployed.length * 4} files each read from both nodes`,
    );
  }, 240_000);
});
