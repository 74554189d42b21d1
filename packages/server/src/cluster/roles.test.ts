import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tarGz, uploadForm } from '../../test/archives.ts';
import { expectStatus, signedIn } from '../../test/client.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { siteRequest } from '../../test/siteClient.ts';

const METRICS_TOKEN = 'a token for prometheus, long enough';

describe('the roles of a node (WHARF_ROLE)', () => {
  let dataDir: string;
  let api: TestServer;
  let edge: TestServer;
  let siteHost: string;

  beforeAll(async () => {
    // Two processes of one machine share its data: one serves the API, the other the sites.
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'wharf-roles-'));
    const shared = { WHARF_METRICS_TOKEN: METRICS_TOKEN, WHARF_SECRET: 'one secret for both processes, 32+ chars' };
    api = await startTestServer({ dataDir, env: { ...shared, WHARF_ROLE: 'api,worker' } });
    const owner = await signedIn(api.url, 'owner');
    const org = expectStatus(await owner.post('/api/v1/orgs', { name: 'Acme' }), 200);
    const team = expectStatus(await owner.post(`/api/v1/orgs/${org._id}/teams`, { name: 'Web' }), 200);
    const site = expectStatus(await owner.post(`/api/v1/teams/${team._id}/sites`, { name: 'roles' }), 200);
    const archive = await tarGz([{ name: 'index.html', content: '<h1>served by the edge</h1>' }]);
    const release = expectStatus(
      await owner.request('POST', `/api/v1/sites/${site._id}/releases`, uploadForm(archive, 'r')),
      200,
    );
    siteHost = new URL(release.deployedBranches[0].url).hostname;
    edge = await startTestServer({ dataDir, env: { ...shared, WHARF_ROLE: 'edge' } });
  });
  afterAll(async () => {
    await edge?.close();
    await api?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const port = (server: TestServer) => Number(new URL(server.url).port);

  it('serves the sites on an edge node, and answers 421 there for the console and the API', async () => {
    expect((await siteRequest(port(edge), siteHost, '/')).text).toBe('<h1>served by the edge</h1>');
    const refused = await fetch(`${edge.url}/api/v1/system/info`);
    expect(refused.status).toBe(421);
    expect(await refused.json()).toMatchObject({ code: 'MISDIRECTED_REQUEST' });
    expect((await fetch(`${edge.url}/`)).status).toBe(421);
  });

  it('answers 421 for the sites on an API node, and serves the API there', async () => {
    const refused = await siteRequest(port(api), siteHost, '/');
    expect(refused.status).toBe(421);
    expect((await fetch(`${api.url}/api/v1/system/info`)).status).toBe(200);
  });

  it('answers health checks and /metrics on every node, whatever its roles', async () => {
    for (const server of [api, edge]) {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      const metrics = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(metrics.status).toBe(200);
    }
    const edgeMetrics = await (
      await fetch(`${edge.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
    ).text();
    expect(edgeMetrics).toMatch(/wharf_site_requests_total\{[^}]*site="roles"/);
    // Each node's own roles and dependencies, as its /readyz reports them.
    expect(edgeMetrics).toContain('wharf_role_ready{role="edge"} 1');
    expect(edgeMetrics).not.toContain('wharf_role_ready{role="api"}');
    expect(edgeMetrics).toContain('wharf_dependency_up{dependency="database"} 1');
  });
});
