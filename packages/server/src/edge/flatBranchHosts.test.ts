import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, type TestClient } from '../../test/client.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { siteRequest } from '../../test/siteClient.ts';
import { buildWorld, uploadRelease, type World } from '../../test/world.ts';

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
