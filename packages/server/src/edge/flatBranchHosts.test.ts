import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, type TestClient } from '../../test/client.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { siteRequest } from '../../test/siteClient.ts';
import { buildWorld, uploadRelease, type World } from '../../test/world.ts';
import { certificatePlanFor } from '../tls/acme/hostPlan.ts';

describe('flat branch hosts (WHARF_BRANCH_HOSTS=flat)', () => {
  let server: TestServer;
  let world: World;
  let owner: TestClient;
  let port: number;

  beforeAll(async () => {
    server = await startTestServer({ env: { WHARF_BRANCH_HOSTS: 'flat' } });
    port = Number(new URL(server.url).port);
    world = await buildWorld(server.url);
    owner = world.clients.owner;
  });
  afterAll(() => server?.close());

  const get = (host: string) => siteRequest(port, `${host}.localhost:${port}`, '/');

  it('serves each branch at {branch}--{site} and shows that URL, and no nested branch host', async () => {
    const { site } = world;
    const release = await uploadRelease(
      owner,
      site._id,
      'preview',
      ['feature/login'],
      [{ name: 'index.html', content: 'preview' }],
    );
    const flat = `http://feature-login--${site.name}.localhost:${port}/`;
    expect(release.deployedBranches).toContainEqual(expect.objectContaining({ name: 'feature/login', url: flat }));
    const shown = expectStatus(await owner.get(`/api/v1/sites/${site._id}`), 200);
    expect(shown.url).toBe(`http://${site.name}.localhost:${port}/`);
    expect(shown.branches).toContainEqual(expect.objectContaining({ name: 'feature/login', url: flat }));

    expect((await get(`feature-login--${site.name}`)).text).toBe('preview');
    // The main branch has one address, the site's: its branch host points there.
    const main = await get(`main--${site.name}`);
    expect(main.status).toBe(301);
    expect(main.headers.location).toBe(`http://${site.name}.localhost:${port}/`);
    expect((await get(`feature-login.${site.name}`)).status).toBe(404);
    expect((await get(`nobranch--${site.name}`)).status).toBe(404);
  });

  it('keeps a long branch name of a site with the longest name in one label of 63 characters, each branch its own', async () => {
    const name = `long-${'x'.repeat(43)}-name`;
    expect(name).toHaveLength(53);
    const site = expectStatus(await owner.post(`/api/v1/teams/${world.team._id}/sites`, { name }), 200);
    const branches = ['feature/checkout-with-saved-cards-first', 'feature/checkout-with-saved-cards-second'];
    for (const branch of branches)
      await uploadRelease(owner, site._id, branch, [branch], [{ name: 'index.html', content: branch }]);
    const shown = expectStatus(await owner.get(`/api/v1/sites/${site._id}`), 200);
    const settings = {
      consoleHost: 'console.test',
      sitesHost: 'localhost',
      wildcards: false,
      branchHosts: 'flat',
    } as const;
    const labels = branches.map((branch) => {
      const { url } = shown.branches.find((shownBranch: { name: string }) => shownBranch.name === branch);
      return new URL(url).hostname.split('.')[0]!;
    });
    expect(new Set(labels).size).toBe(2);
    for (const [i, host] of labels.entries()) {
      expect(host.length).toBeLessThanOrEqual(63);
      expect(host.endsWith(`--${name}`)).toBe(true);
      expect((await get(host)).text).toBe(branches[i]);
      // Certificates are ordered for those hosts too (one per host when no wildcard can be proven).
      const plan = await certificatePlanFor(server.app.db, settings, `${host}.localhost`);
      expect(plan).toEqual({ name: `${host}.localhost`, siteId: site._id, challenge: 'http-01' });
    }
    const unknown = `${labels[0]!.slice(0, -6)}000000--${name}`;
    expect((await get(unknown)).status).toBe(404);
    expect(await certificatePlanFor(server.app.db, settings, `${unknown}.localhost`)).toBeNull();
  });

  it('refuses a site name holding --, which would take another site branch host', async () => {
    const teamSites = `/api/v1/teams/${world.team._id}/sites`;
    const created = await owner.post(teamSites, { name: `preview--${world.site.name}` });
    expect(created.status).toBe(400);
    expect(created.body.details).toEqual([{ field: 'name', message: expect.stringContaining('"--"') }]);
    const checked = expectStatus(await owner.post('/api/v1/sites.validate/name', { name: 'a--b' }), 200);
    expect(checked).toEqual({ valid: false, message: expect.stringContaining('"--"') });
    const { site } = world;
    const renamed = await owner.put(`/api/v1/sites/${site._id}`, {
      name: 'a--b',
      color: '#000000',
      mainBranch: site.mainBranch,
      spa: false,
      domains: [],
    });
    expect(renamed.status).toBe(400);
  });
});

describe('nested branch hosts (the default)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it("refuses a site name longer than 53 characters, which would leave its releases' addresses no room", async () => {
    const world = await buildWorld(server.url);
    const owner = world.clients.owner;
    const teamSites = `/api/v1/teams/${world.team._id}/sites`;
    const tooLong = 'a'.repeat(54);
    const created = await owner.post(teamSites, { name: tooLong });
    expect(created.status).toBe(400);
    expect(created.body.details).toEqual([
      { field: 'name', message: expect.stringContaining('at most 53 characters') },
    ]);
    const checked = expectStatus(await owner.post('/api/v1/sites.validate/name', { name: tooLong }), 200);
    expect(checked).toEqual({ valid: false, message: expect.stringContaining('at most 53 characters') });
    const { site } = world;
    const renamed = await owner.put(`/api/v1/sites/${site._id}`, {
      name: tooLong,
      color: '#000000',
      mainBranch: site.mainBranch,
      spa: false,
      domains: [],
    });
    expect(renamed.status).toBe(400);

    const longest = expectStatus(await owner.post(teamSites, { name: 'b'.repeat(53) }), 200);
    const release = await uploadRelease(owner, longest._id, 'v1', ['main'], [{ name: 'index.html', content: 'fits' }]);
    const port = Number(new URL(server.url).port);
    const releaseHost = new URL(release.url).hostname.split('.')[0]!;
    expect(releaseHost).toHaveLength(63);
    expect((await siteRequest(port, `${releaseHost}.localhost:${port}`, '/')).text).toBe('fits');
  });

  it('lets a site name hold --, served as a site of its own', async () => {
    const world = await buildWorld(server.url);
    const owner = world.clients.owner;
    const site = expectStatus(await owner.post(`/api/v1/teams/${world.team._id}/sites`, { name: 'my--shop' }), 200);
    await uploadRelease(owner, site._id, 'v1', ['main', 'preview'], [{ name: 'index.html', content: 'my shop' }]);
    const port = Number(new URL(server.url).port);
    expect(site.url).toBe(`http://my--shop.localhost:${port}/`);
    expect((await siteRequest(port, `my--shop.localhost:${port}`, '/')).text).toBe('my shop');
    expect((await siteRequest(port, `preview.my--shop.localhost:${port}`, '/')).text).toBe('my shop');
  });
});
