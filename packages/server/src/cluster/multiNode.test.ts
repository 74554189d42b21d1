import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256, tarGz, uploadForm } from '../../test/archives.ts';
import { expectStatus, signedIn, type TestClient } from '../../test/client.ts';
import {
  freePort,
  randomSchema,
  schemaUrl,
  startTestServer,
  type TestServer,
  testDatabaseUrl,
  testRedisUrl,
  testUsersSetting,
  withPg,
} from '../../test/harness.ts';
import { exited, startWharf, stopWharf, untilAnswers, type WharfProcess } from '../../test/processes.ts';
import { connectRealtime, nextEvent } from '../../test/realtimeClient.ts';
import { type S3Peer, startS3Peer } from '../../test/s3Peer.ts';
import { siteRequest } from '../../test/siteClient.ts';
import { collectGarbage } from '../modules/releases/collect/gc.ts';
import { blobKey } from '../releaseFiles/blobKeys.ts';

/** The shared environment of "Running several nodes" in the README: its variables, as written there. */
function readmeEnvironment(): string[] {
  const readme = readFileSync(path.resolve(import.meta.dirname, '../../../../README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Running several nodes'));
  const block = /Every node gets the same environment[\s\S]*?```sh\n([\s\S]*?)```/.exec(section)![1]!;
  return block
    .split('\n')
    .filter((line) => /^[A-Z][A-Z0-9_]*=/.test(line))
    .map((line) => line.slice(0, line.indexOf('=')));
}

interface Node {
  name: string;
  url: string;
  port: number;
  process: WharfProcess;
}

const services = testDatabaseUrl && testRedisUrl;
if (!services)
  console.warn(
    '!! The multi-node suite needs PostgreSQL and Redis (WHARF_TEST_DATABASE_URL, WHARF_TEST_REDIS_URL): SKIPPED',
  );

describe.skipIf(!services)('several Wharf nodes on one PostgreSQL, one Redis and one bucket', () => {
  let s3: S3Peer;
  let schema: string;
  let shared: Record<string, string>;
  const nodes: Node[] = [];
  const dataDirs: string[] = [];
  let inProcess: TestServer | undefined;

  /** The README's variables, each given this test's service: the nodes are reached directly (no load balancer). */
  function sharedEnvironment(prefix: string): Record<string, string> {
    const values: Record<string, string> = {
      DATABASE_URL: schemaUrl(schema),
      REDIS_URL: testRedisUrl!,
      ...s3.env(prefix),
      WHARF_SECRET: randomBytes(32).toString('base64url'),
      WHARF_TRUST_PROXY: 'loopback',
    };
    const names = readmeEnvironment();
    // Addresses are each node's own here: there is no load balancer in front of them.
    for (const name of names)
      if (!(name in values) && name !== 'WHARF_URL' && name !== 'WHARF_SITES_URL')
        throw new Error(`The README sets ${name}, which this test does not`);
    return Object.fromEntries(Object.entries(values).filter(([name]) => names.includes(name)));
  }

  async function startNode(name: string, extra: Record<string, string | undefined> = {}): Promise<Node> {
    const port = await freePort();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), `wharf-${name}-`));
    dataDirs.push(dataDir);
    const env = { ...shared, WHARF_NODE_NAME: name, WHARF_USERS: await testUsersSetting(), ...extra };
    const process = await startWharf(
      dataDir,
      port,
      Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined)) as Record<string, string>,
    );
    return { name, port, url: `http://127.0.0.1:${port}`, process };
  }

  async function ready(node: Node) {
    try {
      return (await untilAnswers(`${node.url}/readyz`, node.process.child)).json();
    } catch (error) {
      throw new Error(`${node.name}: ${(error as Error).message}: ${node.process.stdout()} ${node.process.stderr()}`);
    }
  }

  beforeAll(async () => {
    s3 = await startS3Peer();
    schema = await randomSchema();
    shared = sharedEnvironment(`cluster-${schema}`);
    nodes.push(await startNode('node-a'), await startNode('node-b'));
    for (const node of nodes)
      expect(await ready(node)).toMatchObject({
        status: 'serving',
        checks: { database: 'ok', redis: 'ok', storage: 'ok' },
      });
  }, 300_000);
  afterAll(async () => {
    await Promise.all(nodes.map((node) => stopWharf(node.process)));
    await inProcess?.close();
    await s3?.close();
    if (schema) await withPg((client) => client.query(`drop schema if exists ${schema} cascade`));
    await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  let owner: TestClient;
  let siteId: string;
  let mainBranchId: string;
  let firstReleaseId: string;
  const served = (node: Node, url: string, pathname = '/') => siteRequest(node.port, new URL(url).host, pathname);
  /** The deploys of the site in the database every node shares. */
  const deploysOfSite = () =>
    withPg(async (client) => {
      const rows = await client.query(`select id from ${schema}.deploys where site_id = $1`, [siteId]);
      return rows.rows.map((row: { id: string }) => row.id);
    });
  /** Asks until `ok` holds, every 20 ms, and answers how long it took; fails after 10 s. */
  async function within(check: () => Promise<boolean>) {
    const startedAt = performance.now();
    while (!(await check())) {
      if (performance.now() - startedAt > 10_000) throw new Error('not within 10 s');
      await sleep(20);
    }
    return performance.now() - startedAt;
  }

  it('serves a release uploaded through node A from node B, byte for byte, within a second', async () => {
    const [a, b] = nodes as [Node, Node];
    owner = await signedIn(a.url, 'owner');
    const org = expectStatus(await owner.post('/api/v1/orgs', { name: 'Acme' }), 200);
    const team = expectStatus(await owner.post(`/api/v1/orgs/${org._id}/teams`, { name: 'Web' }), 200);
    const site = expectStatus(await owner.post(`/api/v1/teams/${team._id}/sites`, { name: 'spread' }), 200);
    siteId = site._id;
    mainBranchId = site.mainBranch;
    const video = randomBytes(2 * 1024 * 1024);
    const archive = await tarGz([
      { name: 'index.html', content: '<h1>one</h1>' },
      { name: 'video.bin', content: video },
    ]);
    const release = expectStatus(
      await owner.request('POST', `/api/v1/sites/${siteId}/releases`, uploadForm(archive, 'one')),
      200,
    );
    firstReleaseId = release._id;
    const url = release.deployedBranches[0].url.replace(`:${a.port}`, `:${b.port}`);
    const took = await within(async () => (await served(b, url)).text === '<h1>one</h1>');
    expect(took).toBeLessThan(1_000);
    expect((await served(b, url, '/video.bin')).body.equals(video)).toBe(true);
  });

  it('shows a rollback made through node B on node A’s edge and in a console connected to A, within a second', async () => {
    const [a, b] = nodes as [Node, Node];
    const second = expectStatus(
      await owner.request(
        'POST',
        `/api/v1/sites/${siteId}/releases`,
        uploadForm(await tarGz([{ name: 'index.html', content: '<h1>two</h1>' }]), 'two'),
      ),
      200,
    );
    const urlOnA = second.deployedBranches[0].url;
    await within(async () => (await served(a, urlOnA)).text === '<h1>two</h1>');
    const socket = await connectRealtime(a.url, owner.cookieHeader);
    try {
      expect(await socket.emitWithAck('join', { room: 'site', id: siteId })).toEqual({ ok: true });
      const arrival = nextEvent(socket, 'site_branch_release_set');
      const throughB = await signedIn(b.url, 'owner');
      const startedAt = performance.now();
      expectStatus(
        await throughB.put(`/api/v1/sites/${siteId}/branches/${mainBranchId}/release`, { release: firstReleaseId }),
        200,
      );
      const tookEdge = await within(async () => (await served(a, urlOnA)).text === '<h1>one</h1>');
      const message = await arrival;
      const tookConsole = performance.now() - startedAt;
      expect(message.siteId).toBe(siteId);
      expect(tookEdge).toBeLessThan(1_000);
      expect(tookConsole).toBeLessThan(1_000);
    } finally {
      socket.close();
    }
  });

  it('completes through node B an upload whose node A was killed half-way, with nothing half-made left', async () => {
    const [a, b] = nodes as [Node, Node];
    const big = randomBytes(8 * 1024 * 1024);
    const archive = await tarGz([
      { name: 'index.html', content: '<h1>three</h1>' },
      { name: 'big.bin', content: big },
    ]);
    const form = new Response(uploadForm(archive, 'three'));
    const body = Buffer.from(await form.arrayBuffer());
    const key = `retry-${randomBytes(8).toString('hex')}`;
    const token = expectStatus(await owner.post(`/api/v1/sites/${siteId}/tokens`, { name: 'ci' }), 200).value;
    // Half the body to node A, which is then killed: the client's request fails (its connection
    // dies, or a worker process of A answers 503 as its primary goes).
    const deploysBefore = await deploysOfSite();
    const cut = sendHalfThenWait(a.port, `/api/v1/sites/${siteId}/releases`, body, {
      authorization: `Bearer ${token}`,
      'content-type': form.headers.get('content-type')!,
      'idempotency-key': key,
    });
    // Killed once it has opened a deploy for the upload and is reading the body, whatever the load.
    await within(async () => (await deploysOfSite()).some((id) => !deploysBefore.includes(id)));
    a.process.child.kill('SIGKILL');
    await exited(a.process.child);
    expect(await cut).not.toBe(200);
    // The client's retry, the same request with the same key, through node B.
    const retried = await fetch(`${b.url}/api/v1/sites/${siteId}/releases`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': form.headers.get('content-type')!,
        'idempotency-key': key,
      },
      body,
    });
    expect(retried.status).toBe(200);
    const release = (await retried.json()) as { deployedBranches: { url: string }[] };
    const releases = expectStatus(
      await (await signedIn(b.url, 'owner')).get(`/api/v1/sites/${siteId}/releases?search=three`),
      200,
    );
    expect(releases.items.map((item: { name: string }) => item.name)).toEqual(['three']);
    const url = release.deployedBranches[0]!.url.replace(`:${a.port}`, `:${b.port}`);
    expect((await served(b, url, '/big.bin')).body.equals(big)).toBe(true);
    // Node A comes back under its name, and serves the same.
    nodes[0] = await startNode('node-a');
    await ready(nodes[0]);
  }, 180_000);

  it('collects, from one node, only the files no release uses, in the bucket too', async () => {
    inProcess = await startTestServer({ schema, env: { ...shared, WHARF_NODE_NAME: 'node-c', WHARF_ROLE: 'worker' } });
    const client = await signedIn(nodes[1]!.url, 'owner');
    const unused = expectStatus(
      await client.request(
        'POST',
        `/api/v1/sites/${siteId}/releases`,
        uploadForm(await tarGz([{ name: 'gone.txt', content: 'only here' }]), 'gone', ['scratch']),
      ),
      200,
    );
    const scratch = unused.deployedBranches[0];
    expectStatus(await client.delete(`/api/v1/sites/${siteId}/branches/${scratch._id}`), 204);
    expectStatus(await client.delete(`/api/v1/releases/${unused._id}`), 204);
    const prefix = shared.WHARF_STORAGE!.replace(`s3://${s3.bucket}/`, '');
    expect(await s3.keys(prefix)).toContain(blobKey(sha256('only here')));
    await collectGarbage(inProcess.app, new Date(Date.now() + 24 * 3600_000));
    const keys = await s3.keys(prefix);
    expect(keys).not.toContain(blobKey(sha256('only here')));
    expect(keys).toContain(blobKey(sha256('<h1>one</h1>')));
  });

  it('refuses to start a node that cannot work beside the others, saying what to set', async () => {
    const local = await startNode('node-local', { WHARF_STORAGE: undefined, WHARF_S3_ENDPOINT: undefined });
    expect(await exited(local.process.child)).toBe(1);
    expect(local.process.stderr()).toMatch(/missing on the others.*WHARF_STORAGE=s3:\/\//s);
    const alone = await startNode('node-no-redis', { REDIS_URL: undefined });
    expect(await exited(alone.process.child)).toBe(1);
    expect(alone.process.stderr()).toMatch(/every node needs the same REDIS_URL/);
    const stranger = await startNode('node-other-secret', { WHARF_SECRET: randomBytes(32).toString('base64url') });
    expect(await exited(stranger.process.child)).toBe(1);
    expect(stranger.process.stderr()).toMatch(/sealed with another secret/);
  });
});

/**
 * Sends the first half of a body and holds the request open; answers the status the server gave
 * (it cannot have finished it), or 0 when the connection died.
 */
function sendHalfThenWait(port: number, urlPath: string, body: Buffer, headers: Record<string, string>) {
  return new Promise<number>((resolve) => {
    const request = http.request({
      host: '127.0.0.1',
      port,
      path: urlPath,
      method: 'POST',
      headers: { ...headers, 'content-length': body.length },
    });
    request.on('error', () => resolve(0));
    request.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.write(body.subarray(0, body.length / 2));
  });
}
