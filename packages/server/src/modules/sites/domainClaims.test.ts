import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, type TestClient } from '../../../test/client.ts';
import { type DnsPeer, startDnsPeer } from '../../../test/dnsPeer.ts';
import { databases, freePort, startTestServer, type TestServer } from '../../../test/harness.ts';
import { siteRequest } from '../../../test/siteClient.ts';
import { buildWorld, SITE_FILES, uploadRelease, type World } from '../../../test/world.ts';

type Domain = { name: string; ownership: { token: string; verifiedAt: string | null; ended?: Record<string, string> } };
type Site = { _id: string; name: string; mainBranch: string; domains: Domain[] };

/**
 * Two organizations on one Wharf: A (the world's owner) holds domains, B (the outsider's own
 * organization) tries to take them. The HTTP challenge can reach this Wharf: the DNS peer answers
 * 127.0.0.1 for every name, as a wildcard record pointing at Wharf would.
 */
describe.each(databases)('custom domain claims between organizations on $name', ({ postgres }) => {
  let dns: DnsPeer;
  let server: TestServer;
  let world: World;
  let a: TestClient;
  let b: TestClient;
  let bTeamId: string;
  let port: number;

  beforeAll(async () => {
    dns = await startDnsPeer();
    port = await freePort();
    server = await startTestServer({
      postgres,
      port,
      env: {
        WHARF_DNS_SERVER: dns.server,
        WHARF_OWNERSHIP_HTTP_PORT: String(port),
        WHARF_ALLOW_PRIVATE_UPSTREAMS: 'on',
      },
    });
    world = await buildWorld(server.url);
    a = world.clients.owner;
    b = world.clients.outsider;
    const bOrg = expectStatus(await b.post('/api/v1/orgs', { name: 'Takers' }), 200);
    bTeamId = expectStatus(await b.post(`/api/v1/orgs/${bOrg._id}/teams`, { name: 'Web' }), 200)._id;
  });
  afterAll(async () => {
    await server?.close();
    await dns?.close();
  });

  async function newSite(client: TestClient, teamId: string): Promise<Site> {
    return expectStatus(await client.post(`/api/v1/teams/${teamId}/sites`, { name: world.unique('claim') }), 200);
  }
  const aSite = () => newSite(a, world.team._id);
  const bSite = () => newSite(b, bTeamId);

  function saveDomains(client: TestClient, site: Site, names: string[]) {
    const domains = names.map((name) => ({ name, exposeBranches: true, sslConfiguration: { type: 'external' } }));
    const settings = { name: site.name, color: '#000000', mainBranch: site.mainBranch, spa: false, domains };
    return client.put(`/api/v1/sites/${site._id}`, settings);
  }
  async function claim(client: TestClient, site: Site, name: string): Promise<Domain> {
    const saved = expectStatus(await saveDomains(client, site, [name]), 200) as Site;
    return saved.domains[0]!;
  }
  const verify = (client: TestClient, site: Site, name: string) =>
    client.post(`/api/v1/sites/${site._id}/domains/${name}/verify`, {});
  async function verifyByTxt(client: TestClient, site: Site, domain: Domain) {
    await dns.setTxt(`_wharf.${domain.name}`, domain.ownership.token);
    return expectStatus(await verify(client, site, domain.name), 200) as Site;
  }
  const onHost = (host: string, path = '/') => siteRequest(port, host, path);
  const challenge = (domain: Domain) => onHost(domain.name, `/.well-known/wharf-ownership/${domain.ownership.token}`);
  const shown = async (client: TestClient, site: Site) =>
    (expectStatus(await client.get(`/api/v1/sites/${site._id}`), 200) as Site).domains[0]!;

  it("refuses names at or under another organization's verified domain, which serve that organization's branches", async () => {
    const name = 'shop.example.test';
    expectStatus(
      await a.post(`/api/v1/sites/${world.site._id}/branches`, { name: 'dev', releaseId: world.release._id }),
      200,
    );
    await verifyByTxt(a, world.site as Site, await claim(a, world.site as Site, name));
    await expect.poll(async () => (await onHost(`dev.${name}`)).text).toBe(SITE_FILES[0]!.content);

    const taker = await bSite();
    for (const wanted of [`dev.${name}`, `www.${name}`, `a.b.${name}`, name]) {
      const refused = await saveDomains(b, taker, [wanted]);
      expect(refused.status, wanted).toBe(409);
      expect(refused.body.code, wanted).toBe('DOMAIN_OF_ANOTHER_ORG');
    }
    expect((await saveDomains(b, taker, [`dev.${name}`])).body.message).toBe(
      `dev.${name} is under ${name}, which another organization verified: only that organization may claim it`,
    );
    expect((await shown(b, taker)) ?? null).toBeNull();
    expect((await onHost(`dev.${name}`)).text).toBe(SITE_FILES[0]!.content);
  });

  it('ends the claims under a domain another organization verifies, and their HTTP challenge proves nothing', async () => {
    const name = 'store.example.test';
    const taker = await bSite();
    const early = await claim(b, taker, `dev.${name}`);
    expect(await challenge(early)).toMatchObject({ status: 200, text: early.ownership.token });

    const holder = await aSite();
    await verifyByTxt(a, holder, await claim(a, holder, name));
    const ended = (await shown(b, taker)).ownership;
    expect(ended.verifiedAt).toBeNull();
    expect(ended.ended).toEqual({
      reason: 'taken',
      at: expect.any(String),
      message: expect.stringMatching(new RegExp(`^Another organization verified ${name} on \\d{4}-\\d\\d-\\d\\d`)),
    });
    const refused = await verify(b, taker, early.name);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('DOMAIN_OF_ANOTHER_ORG');
    await expect.poll(async () => (await challenge(early)).status).toBe(404);
    expect((await shown(b, taker)).ownership.verifiedAt).toBeNull();
  });

  it('ends a name proved over HTTP before another organization verified the domain above it, which serves it then', async () => {
    const name = 'early.example.test';
    // The owners' wildcard already points at Wharf: B proves dev.{name} over HTTP before A comes.
    const taker = await bSite();
    const dev = await claim(b, taker, `dev.${name}`);
    await expect.poll(async () => (await challenge(dev)).status).toBe(200);
    expect((expectStatus(await verify(b, taker, dev.name), 200) as Site).domains[0]!.ownership.verifiedAt).toEqual(
      expect.any(String),
    );
    await expect.poll(async () => (await onHost(dev.name)).text).toContain('Nothing deployed yet');

    const holder = await aSite();
    await uploadRelease(a, holder._id, 'dev release', ['dev']);
    await verifyByTxt(a, holder, await claim(a, holder, name));
    expect((await shown(b, taker)).ownership).toMatchObject({
      verifiedAt: null,
      ended: { reason: 'taken', message: expect.stringMatching(new RegExp(`^Another organization verified ${name}`)) },
    });
    await expect.poll(async () => (await onHost(dev.name)).text).toBe(SITE_FILES[0]!.content);
  });

  it('takes no HTTP proof of a name Wharf serves for another site of the same organization', async () => {
    const name = 'team.example.test';
    const holder = await aSite();
    await verifyByTxt(a, holder, await claim(a, holder, name));
    const sibling = await aSite();
    const www = await claim(a, sibling, `www.${name}`);
    const refused = await verify(a, sibling, www.name);
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('DOMAIN_NOT_VERIFIED');
    expect(refused.body.message).toContain(
      `Wharf serves ${name} for another site: only the TXT record proves www.${name}`,
    );
    // The edge answers the holder's site there, not the sibling's challenge.
    expect((await challenge(www)).status).toBe(404);
    expect((await verifyByTxt(a, sibling, www)).domains[0]!.ownership.verifiedAt).toEqual(expect.any(String));
  });

  it('takes only the TXT record as proof of a domain another organization removed lately', async () => {
    const name = 'gone.example.test';
    const holder = await aSite();
    await verifyByTxt(a, holder, await claim(a, holder, name));
    expectStatus(await saveDomains(a, holder, []), 200);
    await dns.clearTxt(`_wharf.${name}`);

    const taker = await bSite();
    const domain = await claim(b, taker, name);
    // Wharf's edge answers the challenge (the name still points here), which proves nothing now.
    await expect.poll(async () => (await challenge(domain)).text).toBe(domain.ownership.token);
    const refused = await verify(b, taker, name);
    expect(refused.status).toBe(422);
    expect(refused.body.message).toMatch(
      new RegExp(
        `${name} was removed from another organization's site on \\d{4}-\\d\\d-\\d\\d: until \\d{4}-\\d\\d-\\d\\d only the TXT record proves ${name}`,
      ),
    );
    expect((await verifyByTxt(b, taker, domain)).domains[0]!.ownership.verifiedAt).toEqual(expect.any(String));
  });

  it('takes the HTTP challenge again once 30 days passed since the removal', async () => {
    const name = 'moved.example.test';
    const holder = await aSite();
    await verifyByTxt(a, holder, await claim(a, holder, name));
    expectStatus(await saveDomains(a, holder, []), 200);
    await dns.clearTxt(`_wharf.${name}`);
    await server.app.housekeeping.round(new Date(Date.now() + 31 * 86_400_000), { thorough: false });

    const taker = await bSite();
    const domain = await claim(b, taker, name);
    await expect.poll(async () => (await challenge(domain)).status).toBe(200);
    expect((expectStatus(await verify(b, taker, name), 200) as Site).domains[0]!.ownership.verifiedAt).toEqual(
      expect.any(String),
    );
  });

  it("lets the real owner claim a name someone else left unverified, and the verified claim ends the squatter's", async () => {
    const name = 'brand.example.test';
    const squatter = await bSite();
    await claim(b, squatter, name);
    const owner = await aSite();
    const domain = await claim(a, owner, name);
    await verifyByTxt(a, owner, domain);
    expect((await shown(b, squatter)).ownership.ended).toEqual({
      reason: 'taken',
      at: expect.any(String),
      message: expect.stringMatching(new RegExp(`^Another organization verified ${name} on `)),
    });
    await expect.poll(async () => (await onHost(name)).text).toContain('Nothing deployed yet');
    // The squatter may no longer claim it anew either: it is the verifier's.
    const again = await saveDomains(b, await bSite(), [name]);
    expect(again.body.code).toBe('DOMAIN_OF_ANOTHER_ORG');
  });

  it('ends a claim not verified within 7 days: its challenge is no longer answered, and the TXT record still proves it', async () => {
    const site = await bSite();
    const domain = await claim(b, site, 'late.example.test');
    await expect.poll(async () => (await challenge(domain)).status).toBe(200);
    await server.app.housekeeping.round(new Date(Date.now() + 6 * 86_400_000), { thorough: false });
    expect((await shown(b, site)).ownership.ended).toBeUndefined();
    await server.app.housekeeping.round(new Date(Date.now() + 8 * 86_400_000), { thorough: false });
    expect((await shown(b, site)).ownership.ended).toEqual({
      reason: 'expired',
      at: expect.any(String),
      message: expect.stringContaining('Not verified within 7 days of being added'),
    });
    await expect.poll(async () => (await challenge(domain)).status).toBe(404);
    const byHttp = await verify(b, site, domain.name);
    expect(byHttp.body.message).toContain('the claim expired: only the TXT record proves it now');
    const verified = await verifyByTxt(b, site, domain);
    expect(verified.domains[0]!.ownership).toEqual({ token: domain.ownership.token, verifiedAt: expect.any(String) });
  });
});
