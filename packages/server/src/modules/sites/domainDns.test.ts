import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Bind9, startBind9 } from '../../../test/bind9.ts';
import { expectStatus, type TestClient } from '../../../test/client.ts';
import { startTestServer, type TestServer } from '../../../test/harness.ts';
import { buildWorld, type World } from '../../../test/world.ts';

const ZONE = 'customer.test';
const SITE = 'dnsshop';

/**
 * What a domain's owner is told to create, and whether it points here, asked of a real DNS server
 * (BIND) with a zone of the customer's: its apex and every name in it have the address 127.0.0.1
 * (this installation's, in WHARF_PUBLIC_ADDRESSES) but for the names the records below change.
 */
describe("a custom domain's DNS records, checked live", () => {
  let bind9: Bind9;
  let server: TestServer;
  let world: World;
  let owner: TestClient;
  let siteId: string;

  beforeAll(async () => {
    bind9 = await startBind9(ZONE, [
      `www IN CNAME ${SITE}.localhost.`,
      'elsewhere IN A 192.0.2.10',
      'other IN CNAME shop.hosted.example.',
    ]);
    server = await startTestServer({
      env: { WHARF_DNS_SERVER: `127.0.0.1:${bind9.port}`, WHARF_PUBLIC_ADDRESSES: '127.0.0.1, ::1' },
    });
    world = await buildWorld(server.url);
    owner = world.clients.owner;
    const site = expectStatus(await owner.post(`/api/v1/teams/${world.team._id}/sites`, { name: SITE }), 200);
    siteId = site._id;
    const names = [ZONE, `www.${ZONE}`, `app.${ZONE}`, `elsewhere.${ZONE}`, `other.${ZONE}`];
    const domains = names.map((name) => ({ name, sslConfiguration: { type: 'external' } }));
    const settings = { name: site.name, color: '#000000', mainBranch: site.mainBranch, spa: false };
    expectStatus(await owner.put(`/api/v1/sites/${siteId}`, { ...settings, domains }), 200);
  });
  afterAll(async () => {
    await server?.close();
    await bind9?.close();
  });

  const dns = async (name: string) => expectStatus(await owner.get(`/api/v1/sites/${siteId}/domains/${name}/dns`), 200);

  it("asks for A and AAAA records at a zone's apex, naming this installation's addresses", async () => {
    const apex = await dns(ZONE);
    expect(apex).toMatchObject({
      name: ZONE,
      apex: true,
      records: [
        { type: 'A', name: ZONE, value: '127.0.0.1' },
        { type: 'AAAA', name: ZONE, value: '::1' },
      ],
      state: 'pointsHere',
      found: `${ZONE} has the address 127.0.0.1`,
    });
    expect(Date.parse(apex.checkedAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it("asks for a CNAME to the site's own address below the apex, and sees one made", async () => {
    const www = await dns(`www.${ZONE}`);
    expect(www).toMatchObject({
      apex: false,
      records: [{ type: 'CNAME', name: `www.${ZONE}`, value: `${SITE}.localhost` }],
      state: 'pointsHere',
    });
    expect(www.found).toContain(`is an alias of ${SITE}.localhost`);
  });

  it("takes a name whose addresses are all this installation's for one that points here", async () => {
    expect(await dns(`app.${ZONE}`)).toMatchObject({ apex: false, state: 'pointsHere' });
  });

  it('says what a name that points elsewhere has, and waits for DNS', async () => {
    expect(await dns(`elsewhere.${ZONE}`)).toMatchObject({
      state: 'awaitingDns',
      found: `elsewhere.${ZONE} has the address 192.0.2.10`,
    });
    const other = await dns(`other.${ZONE}`);
    expect(other.state).toBe('awaitingDns');
    expect(other.found).toContain('is an alias of shop.hosted.example');
  });

  it('answers 404 for a name the site has not, and nothing to those outside it', async () => {
    const missing = await owner.get(`/api/v1/sites/${siteId}/domains/nope.${ZONE}/dns`);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('DOMAIN_NOT_FOUND');
    expect([403, 404]).toContain(
      (await world.clients.outsider.get(`/api/v1/sites/${siteId}/domains/${ZONE}/dns`)).status,
    );
  });
});
