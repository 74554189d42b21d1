import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sha256, tarGz, uploadForm } from '../../test/archives.ts';
import { type Answer, expectStatus, signedIn, TestClient } from '../../test/client.ts';
import {
  randomSchema,
  schemaUrl,
  testDatabaseUrl,
  testRedisUrl,
  testUsersSetting,
  withPg,
} from '../../test/harness.ts';
import { type StartedNode, startReadyNode, stopWharf } from '../../test/processes.ts';
import { type RedisPeer, startRedisPeer } from '../../test/redisPeer.ts';
import { type S3Peer, startS3Peer } from '../../test/s3Peer.ts';
import { type SiteAnswer, siteRequest } from '../../test/siteClient.ts';
import { blobKey } from '../releaseFiles/blobKeys.ts';

type Node = StartedNode;

/** How long anything may take to answer during an outage before it counts as a hang. */
const NO_HANG_MS = 10_000;

/** Answers what `work` gives and how long it took; fails when it takes longer than `boundMs` (a hang). */
async function timed<T>(work: Promise<T>, boundMs = NO_HANG_MS): Promise<{ value: T; ms: number }> {
  const startedAt = performance.now();
  let deadline: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    deadline = setTimeout(() => reject(new Error(`no answer within ${boundMs} ms`)), boundMs);
  });
  try {
    return { value: await Promise.race([work, hang]), ms: performance.now() - startedAt };
  } finally {
    clearTimeout(deadline);
  }
}

/** What /readyz answers: the node's state, each role's, each dependency's. */
interface Readyz {
  status: string;
  roles: Record<string, string>;
  checks: Record<string, string>;
}

const readyz = async (node: Node) => {
  const answer = await fetch(`${node.url}/readyz`);
  return { status: answer.status, body: (await answer.json()) as Readyz };
};

const METRICS_TOKEN = 'the metrics token of this test';

const metricsOf = async (node: Node) =>
  (await fetch(`${node.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();

const services = testDatabaseUrl && testRedisUrl;

/**
 * Two nodes as `npm start` runs them (one with every role and two worker processes, one with the
 * edge alone) on a PostgreSQL schema, a redis-server and an S3 server of this test's own; Redis
 * and then the store go away under them. Nothing of the machine's own services is touched.
 */
if (!services)
  console.warn(
    '!! The dependency outage suite needs PostgreSQL and Redis (WHARF_TEST_DATABASE_URL, WHARF_TEST_REDIS_URL): SKIPPED',
  );

describe.skipIf(!services)('Redis or the blob store going away under two nodes', () => {
  let redis: RedisPeer;
  let s3: S3Peer;
  let schema: string;
  const dataDirs: string[] = [];
  const nodes: Node[] = [];
  let owner: TestClient;
  let siteId: string;
  let siteHost: string;
  const small = '<h1>small page</h1>'.repeat(50);
  const cached = 'read before the outage';
  const uncached = 'first read after the outage';
  const large = randomBytes(3 * 1024 * 1024);

  async function startNode(name: string, env: Record<string, string>) {
    const node = await startReadyNode(name, {
      DATABASE_URL: schemaUrl(schema),
      REDIS_URL: redis.url,
      ...s3.env(`outages-${schema}`),
      WHARF_SECRET: 'the same secret on every node of this test',
      WHARF_USERS: await testUsersSetting(),
      WHARF_METRICS_TOKEN: METRICS_TOKEN,
      ...env,
    });
    dataDirs.push(node.dataDir);
    return node;
  }

  const served = (node: Node, pathname: string, headers: Record<string, string> = {}) =>
    siteRequest(node.port, siteHost, pathname, { headers });
  const logOf = (node: Node) => node.process.stdout() + node.process.stderr();

  beforeAll(async () => {
    [redis, s3, schema] = await Promise.all([startRedisPeer(), startS3Peer(), randomSchema()]);
    nodes.push(
      await startNode('both-roles', { WHARF_WORKERS: '2' }),
      await startNode('edge-only', { WHARF_WORKERS: '1', WHARF_ROLE: 'edge' }),
    );
    owner = await signedIn(nodes[0]!.url, 'owner');
    const org = expectStatus(await owner.post('/api/v1/orgs', { name: 'Acme' }), 200);
    const team = expectStatus(await owner.post(`/api/v1/orgs/${org._id}/teams`, { name: 'Web' }), 200);
    siteId = expectStatus(await owner.post(`/api/v1/teams/${team._id}/sites`, { name: 'outages' }), 200)._id;
    const archive = await tarGz([
      { name: 'index.html', content: small },
      { name: 'cached.txt', content: cached },
      { name: 'uncached.txt', content: uncached },
      { name: 'large.bin', content: large },
      { name: '.wharf.yml', content: 'forms:\n  - name: contact\n    type: db\n' },
    ]);
    const release = expectStatus(
      await owner.request('POST', `/api/v1/sites/${siteId}/releases`, uploadForm(archive, 'first')),
      200,
    );
    siteHost = new URL(release.deployedBranches[0].url).host;
  }, 180_000);
  afterAll(async () => {
    await Promise.all(nodes.map((node) => stopWharf(node.process)));
    await Promise.all([redis?.close(), s3?.close()]);
    if (schema) await withPg((client) => client.query(`drop schema if exists ${schema} cascade`));
    await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  const postForm = (node: Node) =>
    siteRequest(node.port, siteHost, '/.wharf/forms/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: `message=${randomBytes(4).toString('hex')}`,
    });

  /** What users do while Redis is away: each answered within NO_HANG_MS, never with a 500. */
  async function useWhileRedisIsAway() {
    const [both, edge] = nodes as [Node, Node];
    for (const node of nodes) {
      const { value } = await timed(readyz(node));
      expect(value.status, `${node.name} /readyz`).toBe(200);
    }
    const signIn = await timed(
      new TestClient(both.url).post('/auth/in-memory', { user: 'owner', password: 'password' }),
    );
    expect(signIn.value.status).toBe(200);
    const wrong = await timed(new TestClient(both.url).post('/auth/in-memory', { user: 'owner', password: 'wrong' }));
    expect(wrong.value.status).toBe(401);
    const posts = [await timed(postForm(both)), await timed(postForm(edge))];
    for (const post of posts) expect(post.value.status).toBe(200);
    console.info(
      `Redis outage: sign-in ${Math.round(signIn.ms)} ms, form posts ${posts.map((post) => Math.round(post.ms)).join(', ')} ms`,
    );
    expect((await timed(owner.get(`/api/v1/sites/${siteId}`))).value.status).toBe(200);
    expect((await timed(served(edge, '/'))).value.text).toBe(small);
  }

  /** The count Redis holds of this machine's form posts: every process of both nodes adds to it. */
  async function formPostsCountedInRedis() {
    const client = new Redis(redis.url);
    try {
      const keys = await client.keys('*form-submissions:*');
      const values = await Promise.all(keys.map((key) => client.get(key)));
      return values.reduce((sum, value) => sum + Number(value ?? 0), 0);
    } finally {
      client.disconnect();
    }
  }

  it('keeps both nodes ready and sign-ins and form posts working while Redis hangs, then is down; counts are shared again after', async () => {
    const [both, edge] = nodes as [Node, Node];
    redis.pause();
    try {
      // Each process finds out at its first command, within its 1 s command timeout.
      await useWhileRedisIsAway();
      await vi.waitFor(async () => expect((await readyz(edge)).body.checks.redis).not.toBe('ok'), {
        timeout: 10_000,
      });
      const { body } = await readyz(edge);
      expect(body).toMatchObject({ status: 'serving', roles: { edge: 'ready' }, checks: { database: 'ok' } });
    } finally {
      redis.resume();
    }
    await redis.stop();
    try {
      await useWhileRedisIsAway();
      await vi.waitFor(async () => expect((await readyz(both)).body.checks.redis).not.toBe('ok'), {
        timeout: 10_000,
      });
      expect((await readyz(both)).body).toMatchObject({
        status: 'serving',
        roles: { api: 'ready', edge: 'ready', worker: 'ready' },
      });
      await vi.waitFor(
        async () => expect(await metricsOf(both)).toContain('wharf_dependency_up{dependency="redis"} 0'),
        { timeout: 10_000 },
      );
      expect(await metricsOf(edge)).toContain('wharf_role_ready{role="edge"} 1');
    } finally {
      await redis.start();
    }
    // Every process counts in Redis again within 15 s: posts through both nodes all add to its count.
    const startedAt = performance.now();
    await vi.waitFor(
      async () => {
        const before = await formPostsCountedInRedis();
        for (const node of [both, both, both, edge, edge]) expect((await postForm(node)).status).toBe(200);
        expect((await formPostsCountedInRedis()) - before).toBe(5);
      },
      { timeout: 15_000, interval: 500 },
    );
    console.info(`Redis outage: counts shared again ${Math.round(performance.now() - startedAt)} ms after its return`);
    // Each process's connections come back on their own back-off: the primaries' too, within seconds.
    for (const node of nodes)
      await vi.waitFor(async () => expect((await readyz(node)).body.checks.redis).toBe('ok'), {
        timeout: 15_000,
        interval: 250,
      });
    expect(logOf(both)).toContain('Redis does not answer');
    expect(logOf(both)).toContain('Redis answers again');
    expect(logOf(both) + logOf(edge)).not.toMatch(/"statusCode":500|site request failed/);
  }, 120_000);

  it('answers 503 within seconds for files not in memory and for uploads while the store hangs, and serves every file whole after', async () => {
    const [both, edge] = nodes as [Node, Node];
    // In the edge node's memory before the store goes: served through the outage.
    expect((await served(edge, '/cached.txt')).text).toBe(cached);
    const secondFiles = { '/': '<h1>second</h1>', '/extra.txt': 'uploaded during the outage' };
    const second = await tarGz([
      { name: 'index.html', content: '<h1>second</h1>' },
      { name: 'extra.txt', content: 'uploaded during the outage' },
    ]);
    s3.pause();
    const pausedAt = performance.now();
    let upload: Answer;
    try {
      const answers = await Promise.all([
        timed(served(edge, '/uncached.txt')),
        timed(served(edge, '/large.bin', { range: 'bytes=1000-1999' })),
        timed(served(both, '/large.bin')),
        timed(served(edge, '/cached.txt')),
      ]);
      const [page, range, whole, fromMemory] = answers as { value: SiteAnswer; ms: number }[];
      for (const answer of [page, range, whole]) {
        expect(answer!.value.status).toBe(503);
        expect(answer!.value.headers['retry-after']).toBe('5');
      }
      // Two tries of WHARF_S3_TIMEOUT_SECONDS (3 s) and a short back-off: within 7 s, asserted at 10 s.
      console.info(`Store outage: 503 after ${answers.map((answer) => Math.round(answer.ms)).join(', ')} ms`);
      expect(fromMemory!.value.text).toBe(cached);
      // The primary, which takes uploads, finds the outage out itself: two timeouts, on a busy machine more.
      const uploading = await timed(
        owner.request('POST', `/api/v1/sites/${siteId}/releases`, uploadForm(second, 'second', ['preview'])),
        20_000,
      );
      upload = uploading.value;
      console.info(`Store outage: the upload answered ${upload.status} after ${Math.round(uploading.ms)} ms`);
      expect([200, 503]).toContain(upload.status);
      if (upload.status === 503) expect(upload.body.code).toBe('STORE_UNAVAILABLE');
      for (const node of nodes) {
        const { status, body } = (await timed(readyz(node))).value;
        expect(status).toBe(200);
        expect(body.checks.storage).not.toBe('ok');
      }
    } finally {
      // At least 8 s of outage, as an operator's store restart would be.
      await sleep(Math.max(0, 8_000 - (performance.now() - pausedAt)));
      s3.resume();
    }
    // The API's upload tried again after the outage, as the CLI does: each process finds the store
    // back at its next question (every second).
    const resumedAt = performance.now();
    while (upload!.status === 503 && performance.now() - resumedAt < 15_000) {
      await sleep(500);
      upload = await owner.request(
        'POST',
        `/api/v1/sites/${siteId}/releases`,
        uploadForm(second, 'second', ['preview']),
      );
    }
    expect(upload!.status).toBe(200);
    const previewHost = new URL(upload!.body.deployedBranches[0].url).host;
    // Every file of both releases, byte for byte, from both nodes, within seconds: each process
    // (a worker of the other node too) finds the store back at its own next question.
    for (const node of nodes)
      await vi.waitFor(
        async () => {
          expect((await served(node, '/')).text).toBe(small);
          expect((await served(node, '/cached.txt')).text).toBe(cached);
          expect((await served(node, '/uncached.txt')).text).toBe(uncached);
          expect((await served(node, '/large.bin')).body.equals(large)).toBe(true);
          const range = await served(node, '/large.bin', { range: 'bytes=1000-1999' });
          expect(range.status).toBe(206);
          expect(range.body.equals(large.subarray(1000, 2000))).toBe(true);
          for (const [pathname, content] of Object.entries(secondFiles))
            expect((await siteRequest(node.port, previewHost, pathname)).text).toBe(content);
        },
        { timeout: 15_000, interval: 250 },
      );
    const keys = await s3.keys(`outages-${schema}`);
    for (const content of [small, cached, uncached, large, ...Object.values(secondFiles)])
      expect(keys).toContain(blobKey(sha256(content)));
    const logs = logOf(both) + logOf(edge);
    expect(logs).toContain('The blob store does not answer');
    expect(logs).toContain('The blob store answers again');
    expect(logs).not.toContain('a release file is missing from the store');
  }, 120_000);
});
