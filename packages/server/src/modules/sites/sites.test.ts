import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfSignedCertificate } from '../../../test/certificates.ts';
import { expectStatus, signedIn, type TestClient } from '../../../test/client.ts';
import { type DnsPeer, startDnsPeer } from '../../../test/dnsPeer.ts';
import { verifyDomains } from '../../../test/domains.ts';
import { databases, startTestServer, type TestServer } from '../../../test/harness.ts';
import { siteRequest } from '../../../test/siteClient.ts';
import { uploadRelease } from '../../../test/world.ts';
import { colorFromName } from '../../lib/colors.ts';

describe.each(databases)('teams and sites on $name', ({ postgres }) => {
  let server: TestServer;
  let dns: DnsPeer;
  let owner: TestClient;
  let orgId: string;
  let teamId: string;

  beforeAll(async () => {
    dns = await startDnsPeer();
    server = await startTestServer({ postgres, env: { WHARF_DNS_SERVER: dns.server } });
    owner = await signedIn(server.url, 'owner');
    orgId = expectStatus(await owner.post('/api/v1/orgs', { name: 'Acme' }), 200)._id;
    teamId = expectStatus(await owner.post(`/api/v1/orgs/${orgId}/teams`, { name: 'Web' }), 200)._id;
  });
  afterAll(async () => {
    await server?.close();
    await dns?.close();
  });

  it('creates a site with a main branch served at its own host name', async () => {
    const site = expectStatus(await owner.post(`/api/v1/teams/${teamId}/sites`, { name: 'shop' }), 200);
    const port = new URL(server.url).port;
    expect(site.url).toBe(`http://shop.localhost:${port}/`);
    expect(site.branches).toEqual([{ _id: site.mainBranch, name: 'main', url: site.url }]);
    expect(site).toMatchObject({ spa: false, hasPassword: false, domains: [], headers: [] });
  });

  it('colors a new organization, team and site after its name unless the creator chooses one', async () => {
    const org = expectStatus(await owner.post('/api/v1/orgs', { name: 'Colorful' }), 200);
    const team = expectStatus(await owner.post(`/api/v1/orgs/${org._id}/teams`, { name: 'Painters' }), 200);
    const site = expectStatus(await owner.post(`/api/v1/teams/${team._id}/sites`, { name: 'palette' }), 200);
    expect([org.color, team.color, site.color]).toEqual(['Colorful', 'Painters', 'palette'].map(colorFromName));
    expect(new Set([org.color, team.color, site.color]).size).toBe(3);

    const chosen = await owner.post(`/api/v1/orgs/${org._id}/teams`, { name: 'Chosen', color: '#0ca678' });
    expect(expectStatus(chosen, 200).color).toBe('#0ca678');
    const wrong = await owner.post(`/api/v1/teams/${team._id}/sites`, { name: 'easel', color: 'teal' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.details).toContainEqual({ field: 'color', message: 'Must match ^#[0-9a-f]{6}$' });
  });

  it('keeps site names unique across all organizations', async () => {
    const other = await signedIn(server.url, 'outsider');
    const otherOrg = expectStatus(await other.post('/api/v1/orgs', { name: 'Other' }), 200)._id;
    const otherTeam = expectStatus(await other.post(`/api/v1/orgs/${otherOrg}/teams`, { name: 'T' }), 200)._id;
    expectStatus(await owner.post(`/api/v1/teams/${teamId}/sites`, { name: 'taken' }), 200);
    const clash = await other.post(`/api/v1/teams/${otherTeam}/sites`, { name: 'taken' });
    expect(clash.status).toBe(409);
    expect(clash.body.message).toBe('Site name is taken');
    expect(expectStatus(await other.post('/api/v1/sites.validate/name', { name: 'taken' }), 200)).toEqual({
      valid: false,
      message: 'Site name is taken',
    });
    expect(expectStatus(await other.post('/api/v1/sites.validate/name', { name: 'free-name' }), 200)).toEqual({
      valid: true,
    });
  });

  it('refuses names that are not DNS labels with the spec message', async () => {
    for (const name of ['Upper', '-dash', 'dash-', 'under_score', 'a'.repeat(64)]) {
      const answer = await owner.post(`/api/v1/teams/${teamId}/sites`, { name });
      expect(answer.status).toBe(400);
      expect(answer.body.message).toMatch(/^name: (Must match|Max length)/);
    }
  });

  it('searches sites of the organization by part of the name, paged', async () => {
    for (const name of ['alpha-one', 'alpha-two', 'beta']) await owner.post(`/api/v1/teams/${teamId}/sites`, { name });
    const found = expectStatus(await owner.get(`/api/v1/orgs/${orgId}/sites?search=alph&page=0&size=1`), 200);
    expect(found.count).toBe(2);
    expect(found.items.map((s: { name: string }) => s.name)).toEqual(['alpha-one']);
    const short = await owner.get(`/api/v1/orgs/${orgId}/sites?search=al`);
    expect(short.status).toBe(400);
  });

  it('updates settings, refusing a main branch of another site', async () => {
    const site = expectStatus(await owner.post(`/api/v1/teams/${teamId}/sites`, { name: 'settings' }), 200);
    const other = expectStatus(await owner.post(`/api/v1/teams/${teamId}/sites`, { name: 'settings-other' }), 200);
    const body = { name: 'settings-renamed', color: '#ff0000', mainBranch: site.mainBranch, spa: true, domains: [] };
    expect(expectStatus(await owner.put(`/api/v1/sites/${site._id}`, body), 200)).toMatchObject({
      name: 'settings-renamed',
      color: '#ff0000',
      spa: true,
    });
    const wrong = await owner.put(`/api/v1/sites/${site._id}`, { ...body, mainBranch: other.mainBranch });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('mainBranch: Must be a branch of this site');
  });

  it('keeps domains unique within a site, and a verified domain to its site', async () => {
    const sites: { _id: string; name: string; mainBranch: string }[] = [];
    for (const name of ['dom-a', 'dom-b', 'dom-c'])
      sites.push(expectStatus(await owner.post(`/api/v1/teams/${teamId}/sites`, { name }), 200));
    const settings = (site: (typeof sites)[number], domains: unknown[]) => ({
      name: site.name,
      color: '#000000',
      mainBranch: site.mainBranch,
      spa: false,
      domains,
    });
    const [first, second, third] = sites as [(typeof sites)[number], (typeof sites)[number], (typeof sites)[number]];
    const domain = { name: 'www.example.com', exposeBranches: true, sslConfiguration: { type: 'acme' } };
    const twice = await owner.put(`/api/v1/sites/${first._id}`, settings(first, [domain, domain]));
    expect(twice.status).toBe(400);
    expect(twice.body.details).toContainEqual({ field: 'domains.1.name', message: 'Duplicate domain' });
    const saved = expectStatus(await owner.put(`/api/v1/sites/${first._id}`, settings(first, [domain])), 200);
    // A claim not verified blocks no one: another site may claim the name until one proves it.
    expectStatus(await owner.put(`/api/v1/sites/${second._id}`, settings(second, [domain])), 200);
    await verifyDomains(owner, dns, first._id, saved.domains);
    const clash = await owner.put(`/api/v1/sites/${third._id}`, settings(third, [domain]));
    expect(clash.status).toBe(409);
    expect(clash.body.code).toBe('DOMAIN_TAKEN');
    expect(clash.body.message).toBe('The domain www.example.com is used by another site');
  });

  it('takes a manual certificate only with the RSA key that matches it', async () => {
    const site = expectStatus(await owner.post(`/api/v1/teams/${teamId}/sites`, { name: 'tls' }), 200);
    const mine = selfSignedCertificate('tls.example.com');
    const other = selfSignedCertificate('other.example.com');
    const settings = (ssl: Record<string, string>) => ({
      name: 'tls',
      color: '#000000',
      mainBranch: site.mainBranch,
      spa: false,
      domains: [{ name: 'tls.example.com', exposeBranches: false, sslConfiguration: { type: 'manual', ...ssl } }],
    });
    const mismatched = await owner.put(
      `/api/v1/sites/${site._id}`,
      settings({ fullchain: mine.fullchain, privateKey: other.privateKey }),
    );
    expect(mismatched.status).toBe(400);
    expect(mismatched.body.message).toBe(
      'domains.0.sslConfiguration.privateKey: The private key does not match the certificate',
    );
    const garbage = await owner.put(
      `/api/v1/sites/${site._id}`,
      settings({
        fullchain: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----',
        privateKey: mine.privateKey,
      }),
    );
    expect(garbage.body.message).toBe(
      'domains.0.sslConfiguration.fullchain: The certificate chain is not a valid PEM certificate',
    );
    const missing = await owner.put(`/api/v1/sites/${site._id}`, settings({ fullchain: mine.fullchain }));
    expect(missing.body.details).toContainEqual({
      field: 'domains.0.sslConfiguration.privateKey',
      message: 'Input is required',
    });
    expect(
      expectStatus(await owner.put(`/api/v1/sites/${site._id}`, settings(mine)), 200).domains[0].sslConfiguration.type,
    ).toBe('manual');
  });

  it("never shows a manual certificate's private key, and keeps it when a save leaves it out", async () => {
    const site = expectStatus(await owner.post(`/api/v1/teams/${teamId}/sites`, { name: 'secret-key' }), 200);
    const mine = selfSignedCertificate('key.example.com');
    const other = selfSignedCertificate('key.example.com');
    const settings = (ssl: Record<string, string>, spa = false) => ({
      name: 'secret-key',
      color: '#000000',
      mainBranch: site.mainBranch,
      spa,
      domains: [{ name: 'key.example.com', exposeBranches: false, sslConfiguration: { type: 'manual', ...ssl } }],
    });
    const saved = expectStatus(await owner.put(`/api/v1/sites/${site._id}`, settings(mine)), 200);
    // What the certificate covers and until when is read from the chain (openssl made it for 2 days).
    expect(saved.domains[0].sslConfiguration).toEqual({
      type: 'manual',
      fullchain: mine.fullchain,
      certificate: { expiresAt: expect.any(String), names: ['key.example.com'], issuer: 'key.example.com' },
    });
    const expiresIn = Date.parse(saved.domains[0].sslConfiguration.certificate.expiresAt) - Date.now();
    expect(expiresIn).toBeGreaterThan(86_400_000);
    expect(expiresIn).toBeLessThanOrEqual(2 * 86_400_000 + 60_000);
    const answers = [
      await owner.get(`/api/v1/sites/${site._id}`),
      await owner.get(`/api/v1/teams/${teamId}/sites`),
      await owner.get(`/api/v1/orgs/${site.orgId}/sites?search=secret-key`),
    ];
    for (const answer of answers) {
      expect(expectStatus(answer, 200) && JSON.stringify(answer.body)).toContain('key.example.com');
      expect(JSON.stringify(answer.body)).not.toContain('PRIVATE KEY');
    }

    // Left out, the saved key stays: the pair still matches, so the certificate check passes.
    const kept = await owner.put(`/api/v1/sites/${site._id}`, settings({ fullchain: mine.fullchain }, true));
    expect(expectStatus(kept, 200).spa).toBe(true);
    // What an answer read from the chain, sent back by the console, is not stored.
    const echoed = { ...settings({ fullchain: mine.fullchain }), domains: saved.domains };
    expectStatus(await owner.put(`/api/v1/sites/${site._id}`, echoed), 200);
    const stored = await server.app.db
      .selectFrom('sites')
      .select('domains')
      .where('id', '=', site._id)
      .executeTakeFirst();
    expect(stored?.domains).not.toContain('expiresAt');
    // The key is stored sealed, as token values are: the database alone does not give it away.
    expect(stored?.domains).not.toContain('PRIVATE KEY');
    expect(stored?.domains).not.toContain(mine.privateKey.split('\n')[1]);
    // A new chain with the old key is checked against the saved key.
    const mismatched = await owner.put(`/api/v1/sites/${site._id}`, settings({ fullchain: other.fullchain }));
    expect(mismatched.body.message).toBe(
      'domains.0.sslConfiguration.privateKey: The private key does not match the certificate',
    );
  });

  it("refuses Wharf's own names as custom domains, and changes nothing", async () => {
    const site = expectStatus(await owner.post(`/api/v1/teams/${teamId}/sites`, { name: 'claims' }), 200);
    // The test server's sites host is localhost: every name under it is a site's or a branch's.
    for (const name of ['claims.localhost', 'main.other.localhost']) {
      const settings = {
        name: 'claims',
        color: '#000000',
        mainBranch: site.mainBranch,
        spa: false,
        domains: [
          { name: 'ok.example.com', exposeBranches: false },
          { name, exposeBranches: false },
        ],
      };
      const answer = await owner.put(`/api/v1/sites/${site._id}`, settings);
      expect([answer.status, answer.body.code]).toEqual([400, 'DOMAIN_RESERVED']);
      expect(answer.body.details).toEqual([{ field: 'domains.1.name', message: expect.stringContaining(name) }]);
    }
    expect(expectStatus(await owner.get(`/api/v1/sites/${site._id}`), 200).domains).toEqual([]);
  });

  it('saves a domain whose TLS is terminated elsewhere without certificates, beside acme and manual ones', async () => {
    const site = expectStatus(await owner.post(`/api/v1/teams/${teamId}/sites`, { name: 'proxied' }), 200);
    await uploadRelease(owner, site._id, 'v1', ['main'], [{ name: 'index.html', content: 'behind a proxy' }]);
    const certificate = selfSignedCertificate('own.example.com');
    const domains = [
      { name: 'proxied.example.com', exposeBranches: false, sslConfiguration: { type: 'external' } },
      // The two types stored before `external` existed are read and saved as they were.
      { name: 'auto.example.com', exposeBranches: false, sslConfiguration: { type: 'acme' } },
      { name: 'own.example.com', exposeBranches: false, sslConfiguration: { type: 'manual', ...certificate } },
    ];
    const settings = { name: 'proxied', color: '#000000', mainBranch: site.mainBranch, spa: false, domains };
    // Answers show everything but the private key.
    const ownership = { token: expect.stringMatching(/^wharf-/), verifiedAt: null };
    const shown = domains.map((d, i) =>
      i === 2
        ? {
            ...d,
            primary: false,
            sslConfiguration: {
              type: 'manual',
              fullchain: certificate.fullchain,
              certificate: { expiresAt: expect.any(String), names: ['own.example.com'], issuer: 'own.example.com' },
            },
            ownership,
          }
        : { ...d, primary: false, ownership },
    );
    const saved = expectStatus(await owner.put(`/api/v1/sites/${site._id}`, settings), 200).domains;
    expect(saved).toEqual(shown);
    expect(expectStatus(await owner.get(`/api/v1/sites/${site._id}`), 200).domains).toEqual(shown);
    await verifyDomains(owner, dns, site._id, saved);
    const served = await siteRequest(Number(new URL(server.url).port), 'proxied.example.com', '/');
    expect(served.text).toBe('behind a proxy');

    const unknown = await owner.put(`/api/v1/sites/${site._id}`, {
      ...settings,
      domains: [{ name: 'proxied.example.com', exposeBranches: false, sslConfiguration: { type: 'none' } }],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('VALIDATION_FAILED');
    expect(unknown.body.details).toContainEqual({
      field: 'domains.0.sslConfiguration.type',
      message: 'Must be acme, manual or external',
    });
  });

  it('lists teams newest first with a count, and deletes a team with its sites', async () => {
    const doomed = expectStatus(await owner.post(`/api/v1/orgs/${orgId}/teams`, { name: 'Doomed' }), 200);
    const site = expectStatus(await owner.post(`/api/v1/teams/${doomed._id}/sites`, { name: 'doomed-site' }), 200);
    const teams = expectStatus(await owner.get(`/api/v1/orgs/${orgId}/teams?page=0&size=1`), 200);
    expect(teams.items[0].name).toBe('Doomed');
    expect(teams.count).toBe(2);
    expect((await owner.delete(`/api/v1/teams/${doomed._id}`)).status).toBe(204);
    expect((await owner.get(`/api/v1/sites/${site._id}`)).status).toBe(404);
    expect(expectStatus(await owner.post('/api/v1/sites.validate/name', { name: 'doomed-site' }), 200).valid).toBe(
      true,
    );
  });
});
