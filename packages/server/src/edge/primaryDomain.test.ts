import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, type TestClient } from '../../test/client.ts';
import { type DnsPeer, startDnsPeer } from '../../test/dnsPeer.ts';
import { verifyDomains } from '../../test/domains.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { siteRequest } from '../../test/siteClient.ts';
import { buildWorld, uploadRelease, type World } from '../../test/world.ts';

const PRIMARY = 'www.shop.test';
const APEX = 'shop.test';

describe('one address for the main branch: its primary domain, else its own; the others redirect to it', () => {
  let dns: DnsPeer;
  let server: TestServer;
  let world: World;
  let owner: TestClient;
  let port: number;
  let site: { _id: string; name: string; mainBranch: string };
  let settings: Record<string, unknown>;
  let releaseUrl: string;

  const ask = (host: string, path = '/') => siteRequest(port, `${host}:${port}`, path);
  // The apex exposes its branches (`preview.shop.test`), and `www.shop.test` is a domain of its own.
  const domainsBody = (primary: string | null) =>
    [PRIMARY, APEX].map((name) => ({
      name,
      primary: name === primary,
      exposeBranches: name === APEX,
      sslConfiguration: { type: 'external' },
    }));

  beforeAll(async () => {
    dns = await startDnsPeer();
    server = await startTestServer({ env: { WHARF_DNS_SERVER: dns.server } });
    port = Number(new URL(server.url).port);
    world = await buildWorld(server.url);
    owner = world.clients.owner;
    site = world.site;
    settings = { name: site.name, color: '#000000', mainBranch: site.mainBranch, spa: false };
    const saved = expectStatus(
      await owner.put(`/api/v1/sites/${site._id}`, { ...settings, domains: domainsBody(PRIMARY) }),
      200,
    );
    await verifyDomains(owner, dns, site._id, saved.domains);
    const files = [
      { name: 'index.html', content: '<p>home</p>' },
      { name: 'docs/index.html', content: '<p>docs</p>' },
    ];
    releaseUrl = (await uploadRelease(owner, site._id, 'v1', ['main', 'preview'], files)).url;
  });
  afterAll(async () => {
    await server?.close();
    await dns?.close();
  });

  it('serves the main branch at its primary domain', async () => {
    const answer = await ask(PRIMARY, '/docs/');
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('<p>docs</p>');
  });

  it("redirects the site's own address, main.{site}, and the other domains there, path and query kept", async () => {
    for (const host of [APEX, `${site.name}.localhost`, `main.${site.name}.localhost`]) {
      const answer = await ask(host, '/docs/?from=old');
      expect(answer.status, host).toBe(301);
      expect(answer.headers.location, host).toBe(`http://${PRIMARY}:${port}/docs/?from=old`);
    }
  });

  it("leaves the other branches and the releases' own addresses where they are", async () => {
    expect((await ask(`preview.${site.name}.localhost`)).status).toBe(200);
    expect((await siteRequest(port, new URL(releaseUrl).host, '/')).status).toBe(200);
  });

  it('refuses two primary domains, naming the second', async () => {
    const domains = domainsBody(PRIMARY).map((domain) => ({ ...domain, primary: true }));
    const refused = await owner.put(`/api/v1/sites/${site._id}`, { ...settings, domains });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('Only one domain can be primary');
    expect((await ask(APEX)).status).toBe(301);
  });

  it('answers at every address again once no domain is primary', async () => {
    const saved = expectStatus(
      await owner.put(`/api/v1/sites/${site._id}`, { ...settings, domains: domainsBody(null) }),
      200,
    );
    expect(saved.domains.map((domain: { primary: boolean }) => domain.primary)).toEqual([false, false]);
    await expect.poll(async () => (await ask(APEX)).status).toBe(200);
    for (const host of [PRIMARY, `${site.name}.localhost`]) expect((await ask(host)).status, host).toBe(200);
  });

  it("redirects the main branch's slug to the address it names: main.{site} to the site's own, main.{domain} to the domain", async () => {
    const moved = [
      [`main.${site.name}.localhost`, `${site.name}.localhost`],
      [`main.${APEX}`, APEX],
    ];
    for (const [from, to] of moved) {
      const answer = await ask(from!, '/docs/?from=old');
      expect(answer.status, from).toBe(301);
      expect(answer.headers.location, from).toBe(`http://${to}:${port}/docs/?from=old`);
    }
    for (const host of [`preview.${site.name}.localhost`, `preview.${APEX}`])
      expect((await ask(host, '/docs/')).text, host).toBe('<p>docs</p>');
  });

  it('shows the main branch at the site address, the others at their own', async () => {
    const shown = expectStatus(await owner.get(`/api/v1/sites/${site._id}`), 200);
    const urls = Object.fromEntries(shown.branches.map((b: { name: string; url: string }) => [b.name, b.url]));
    expect(urls).toEqual({ main: shown.url, preview: `http://preview.${site.name}.localhost:${port}/` });
    const branches = expectStatus(await owner.get(`/api/v1/sites/${site._id}/branches`), 200);
    expect(branches.find((b: { name: string }) => b.name === 'main').url).toBe(shown.url);
  });
});
