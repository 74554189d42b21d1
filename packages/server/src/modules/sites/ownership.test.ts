import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, type TestClient } from '../../../test/client.ts';
import { type DnsPeer, startDnsPeer } from '../../../test/dnsPeer.ts';
import { databases, freePort, startTestServer, type TestServer } from '../../../test/harness.ts';
import { siteRequest } from '../../../test/siteClient.ts';
import { eventMark, eventNamesSince } from '../../../test/snapshot.ts';
import { buildWorld, type World } from '../../../test/world.ts';

describe.each(databases)('custom domain ownership on $name', ({ postgres }) => {
  let dns: DnsPeer;
  let server: TestServer;
  let world: World;
  let owner: TestClient;
  let port: number;

  beforeAll(async () => {
    dns = await startDnsPeer();
    port = await freePort();
    server = await startTestServer({
      postgres,
      port,
      env: {
        WHARF_DNS_SERVER: dns.server,
        // The HTTP challenge reaches this Wharf: every name the DNS peer does not know is 127.0.0.1.
        WHARF_OWNERSHIP_HTTP_PORT: String(port),
        WHARF_ALLOW_PRIVATE_UPSTREAMS: 'on',
      },
    });
    world = await buildWorld(server.url);
    owner = world.clients.owner;
  });
  afterAll(async () => {
    await server?.close();
    await dns?.close();
  });

  /** A site of its own with one custom domain saved, and that domain as answers show it. */
  async function siteWithDomain(name: string) {
    const site = expectStatus(
      await owner.post(`/api/v1/teams/${world.team._id}/sites`, { name: world.unique('own') }),
      200,
    );
    const settings = { name: site.name, color: '#000000', mainBranch: site.mainBranch, spa: false };
    const domains = [{ name, exposeBranches: true, sslConfiguration: { type: 'external' } }];
    const saved = expectStatus(await owner.put(`/api/v1/sites/${site._id}`, { ...settings, domains }), 200);
    return { site, settings, domain: saved.domains[0] };
  }

  const verify = (siteId: string, name: string) => owner.post(`/api/v1/sites/${siteId}/domains/${name}/verify`, {});
  const onHost = (host: string, path = '/') => siteRequest(port, host, path);

  it('gives a saved domain a token, not verified, kept across saves whatever the body says', async () => {
    const { site, settings, domain } = await siteWithDomain('keep.example.test');
    expect(domain.ownership).toEqual({ token: expect.stringMatching(/^wharf-[a-z0-9]{32}$/), verifiedAt: null });
    const forged = { ...domain, ownership: { token: 'mine', verifiedAt: '2024-01-01T00:00:00.000Z' } };
    const again = expectStatus(await owner.put(`/api/v1/sites/${site._id}`, { ...settings, domains: [forged] }), 200);
    expect(again.domains[0].ownership).toEqual(domain.ownership);
  });

  it('verifies a domain whose TXT record holds the token, and the edge serves it from then on', async () => {
    const name = 'txt.example.test';
    const { site, domain } = await siteWithDomain(name);
    const unknown = await onHost('never-saved.example.test');
    const before = await onHost(name);
    expect([before.status, before.text]).toEqual([unknown.status, unknown.text]);

    await dns.setTxt(`_wharf.${name}`, domain.ownership.token);
    const since = await eventMark(server.app.db);
    const verified = expectStatus(await verify(site._id, name), 200);
    expect(verified.domains[0].ownership).toEqual({ token: domain.ownership.token, verifiedAt: expect.any(String) });
    expect(await eventNamesSince(server.app.db, since)).toEqual(['site_updated']);
    await expect.poll(async () => (await onHost(name)).text).toContain('Nothing deployed yet');
  });

  it('refuses a wrong TXT record with the reason, and changes nothing that serves', async () => {
    const name = 'wrong.example.test';
    const { site } = await siteWithDomain(name);
    await dns.setTxt(`_wharf.${name}`, 'wharf-somebody-else');
    // Nothing answers the HTTP challenge for this name: the DNS peer points it at a closed port.
    await dns.addA(name, ['127.0.0.9']);
    const since = await eventMark(server.app.db);
    const answer = await verify(site._id, name);
    expect(answer.status).toBe(422);
    expect(answer.body.code).toBe('DOMAIN_NOT_VERIFIED');
    expect(answer.body.message).toContain(`the TXT record _wharf.${name} is "wharf-somebody-else", not the token`);
    expect(answer.body.message).toContain('could not be fetched');
    expect(await eventNamesSince(server.app.db, since)).toEqual([]);
    const shown = expectStatus(await owner.get(`/api/v1/sites/${site._id}`), 200).domains[0].ownership;
    expect(shown).toMatchObject({ verifiedAt: null, lastError: expect.stringContaining('not the token') });
    expect((await onHost(name)).text).toBe((await onHost('never-saved.example.test')).text);
  });

  it('says when there is no TXT record at all', async () => {
    const name = 'missing.example.test';
    const { site } = await siteWithDomain(name);
    await dns.addA(name, ['127.0.0.9']);
    const answer = await verify(site._id, name);
    expect(answer.status).toBe(422);
    expect(answer.body.message).toContain(`there is no TXT record _wharf.${name}`);
  });

  it('verifies by the HTTP challenge when the domain points at Wharf, which answers it until then', async () => {
    const name = 'http.example.test';
    const { site, domain } = await siteWithDomain(name);
    const challenge = `/.well-known/wharf-ownership/${domain.ownership.token}`;
    expect(await onHost(name, challenge)).toMatchObject({ status: 200, text: domain.ownership.token });
    const wrongToken = await onHost(name, '/.well-known/wharf-ownership/wharf-guess');
    expect(wrongToken.text).toBe(
      (await onHost('never-saved.example.test', '/.well-known/wharf-ownership/wharf-guess')).text,
    );

    const verified = expectStatus(await verify(site._id, name), 200);
    expect(verified.domains[0].ownership.verifiedAt).toEqual(expect.any(String));
    await expect.poll(async () => (await onHost(name)).text).toContain('Nothing deployed yet');
    // Its branches too; the main one's slug points at the domain itself.
    expect((await onHost(`main.${name}`)).headers.location).toBe(`http://${name}/`);
  });

  it('refuses an unknown domain name and callers who may not edit the site, before checking anything', async () => {
    const { site } = await siteWithDomain('guarded.example.test');
    expect((await verify(site._id, 'other.example.test')).body.code).toBe('DOMAIN_NOT_FOUND');
    const member = world.clients.member;
    const refused = await member.post(`/api/v1/sites/${site._id}/domains/guarded.example.test/verify`, {});
    expect(refused.status).toBe(403);
  });
});
