import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tarGz, uploadForm } from '../../test/archives.ts';
import { expectStatus, signedIn, type TestClient } from '../../test/client.ts';
import { DEPLOY } from '../../test/deployFiles.ts';
import {
  freePort,
  randomSchema,
  schemaUrl,
  testDatabaseUrl,
  testRedisUrl,
  testUsersSetting,
  withPg,
} from '../../test/harness.ts';
import { type Nginx, runNginx } from '../../test/nginx.ts';
import { type StartedNode, startReadyNode, stopWharf } from '../../test/processes.ts';
import { connectRealtime, nextEvent } from '../../test/realtimeClient.ts';
import { type S3Peer, startS3Peer } from '../../test/s3Peer.ts';
import { siteRequest } from '../../test/siteClient.ts';
import { wholeBody } from '../../test/wholeAnswer.ts';

const services = testDatabaseUrl && testRedisUrl;
if (!services)
  console.warn(
    '!! The load balancer suite needs PostgreSQL and Redis (WHARF_TEST_DATABASE_URL, WHARF_TEST_REDIS_URL): SKIPPED',
  );

/** A visitor's own loopback address, other than the balancer's (127.0.0.1), so that each shows in the log. */
const VISITOR = '127.0.0.2';

/**
 * deploy/compose/nginx.conf as compose runs it, here on this machine: its port a free one of
 * loopback's, the compose network's node names this test's nodes.
 */
function balancerConfiguration(port: number, api: StartedNode, edge: StartedNode) {
  return readFileSync(path.join(DEPLOY, 'compose/nginx.conf'), 'utf8')
    .replace(/listen 80\b/g, `listen 127.0.0.1:${port}`)
    .replace(/server api:8080;/g, `server 127.0.0.1:${api.port};`)
    .replace(/server edge-\d:8080;/g, `server 127.0.0.1:${edge.port};`);
}

describe.skipIf(!services)(
  "the reference layout's load balancer (deploy/compose/nginx.conf) before an API and an edge node",
  () => {
    let s3: S3Peer;
    let schema: string;
    let balancer: Nginx;
    const nodes: StartedNode[] = [];
    let api: StartedNode;
    let edge: StartedNode;
    let url: string;
    let owner: TestClient;
    let site: { _id: string; name: string };

    beforeAll(async () => {
      s3 = await startS3Peer();
      schema = await randomSchema();
      const port = await freePort();
      url = `http://localhost:${port}`;
      const shared = {
        DATABASE_URL: schemaUrl(schema),
        REDIS_URL: testRedisUrl!,
        ...s3.env(`balancer-${schema}`),
        WHARF_SECRET: randomBytes(32).toString('base64url'),
        WHARF_USERS: await testUsersSetting(),
        WHARF_URL: url,
        WHARF_SITES_URL: url,
        // The balancer's address: forwarded headers count from it alone, as on the compose network.
        WHARF_TRUST_PROXY: '127.0.0.1',
        WHARF_WORKERS: '1',
        LOG_LEVEL: 'info',
      };
      api = await startReadyNode('balanced-api', { ...shared, WHARF_ROLE: 'api' });
      nodes.push(api);
      edge = await startReadyNode('balanced-edge', { ...shared, WHARF_ROLE: 'edge' });
      nodes.push(edge);
      const dir = await mkdtemp(path.join(os.tmpdir(), 'wharf-balancer-'));
      balancer = await runNginx(dir, balancerConfiguration(port, api, edge), port, `daemon off; pid ${dir}/nginx.pid;`);
    }, 180_000);
    afterAll(async () => {
      await balancer?.close();
      await Promise.all(nodes.map((node) => stopWharf(node.process)));
      await s3?.close();
      if (schema) await withPg((client) => client.query(`drop schema if exists ${schema} cascade`));
      await Promise.all(nodes.map((node) => rm(node.dataDir, { recursive: true, force: true })));
    });

    it("sends the console's host to the API node: a sign-in, and an upload beyond nginx's default body limit", async () => {
      owner = await signedIn(url, 'owner');
      const org = expectStatus(await owner.post('/api/v1/orgs', { name: 'Acme' }), 200);
      const team = expectStatus(await owner.post(`/api/v1/orgs/${org._id}/teams`, { name: 'Web' }), 200);
      site = expectStatus(await owner.post(`/api/v1/teams/${team._id}/sites`, { name: 'balanced' }), 200);
      // nginx refuses bodies over 1 MB unless told otherwise (413).
      const archive = await tarGz([
        { name: 'index.html', content: '<h1>balanced</h1>' },
        { name: 'big.bin', content: randomBytes(3 * 1024 * 1024) },
      ]);
      expect(archive.length).toBeGreaterThan(1024 * 1024);
      expectStatus(await owner.request('POST', `/api/v1/sites/${site._id}/releases`, uploadForm(archive, 'one')), 200);
    });

    it("sends every site's host to the edge nodes, which serve the release", async () => {
      const host = `${site.name}.${new URL(url).host}`;
      await expect
        .poll(async () => (await siteRequest(balancer.port, host, '/')).text, { timeout: 10_000 })
        .toBe('<h1>balanced</h1>');
    });

    it("passes the console's WebSocket through to the API node", async () => {
      const socket = await connectRealtime(url, owner.cookieHeader);
      try {
        expect(await socket.emitWithAck('join', { room: 'site', id: site._id })).toEqual({ ok: true });
        const arrival = nextEvent(socket, 'site_release_created');
        const archive = await tarGz([{ name: 'index.html', content: '<h1>two</h1>' }]);
        expectStatus(
          await owner.request('POST', `/api/v1/sites/${site._id}/releases`, uploadForm(archive, 'two')),
          200,
        );
        expect((await arrival).siteId).toBe(site._id);
      } finally {
        socket.close();
      }
    });

    it('names the visitor to the nodes in X-Forwarded-For, which they believe from the balancer', async () => {
      const probe = `probe-${randomBytes(4).toString('hex')}`;
      const status = await new Promise<number>((resolve, reject) => {
        const request = http.get(
          {
            host: '127.0.0.1',
            port: balancer.port,
            localAddress: VISITOR,
            path: `/api/v1/orgs?${probe}`,
            headers: { host: 'localhost' },
          },
          (res) => {
            wholeBody(res).then(() => resolve(res.statusCode ?? 0), reject);
          },
        );
        request.on('error', reject);
      });
      expect(status).toBe(401);
      const logged = async () =>
        api.process
          .stdout()
          .split('\n')
          .find((line) => line.includes(probe)) ?? '';
      await expect.poll(logged).toContain(`"remoteAddress":"${VISITOR}"`);
    });
  },
);
