import { type AuditEntry, orgEvents, siteEvents, teamEvents } from '@wharf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, signedIn, type TestClient } from '../../../test/client.ts';
import { databases, startTestServer, type TestServer } from '../../../test/harness.ts';
import { buildWorld, joinOrg, logoForm, uploadRelease, type World } from '../../../test/world.ts';

const hookBody = (name: string) => ({
  type: 'slack',
  name,
  events: ['site_added'],
  config: { url: 'https://hooks.example.com/s' },
});

/** Each hook event of one owner: created, updated, deleted. */
async function hookLife(owner: TestClient, base: string, name: string) {
  const hook = expectStatus(await owner.post(`${base}/hooks`, hookBody(name)), 200);
  expectStatus(await owner.put(`${base}/hooks/${hook._id}`, hookBody(name)), 200);
  expectStatus(await owner.delete(`${base}/hooks/${hook._id}`), 204);
}

async function logoLife(owner: TestClient, base: string) {
  expectStatus(await owner.request('POST', `${base}/logo`, logoForm()), 200);
  expectStatus(await owner.delete(`${base}/logo`), 204);
}

/** Makes, through the API, at least one event of every name an organization's audit log holds. */
async function everyOrgEvent(w: World) {
  const { owner, outsider } = w.clients;
  const org = `/api/v1/orgs/${w.org._id}`;
  const site = `/api/v1/sites/${w.site._id}`;
  const team = `/api/v1/teams/${w.team._id}`;
  expectStatus(await owner.put(org, { name: 'Acme', color: '#123456' }), 200);
  await logoLife(owner, org);
  const withdrawn = expectStatus(await owner.post(`${org}/invites`, { email: 'gone@example.com', admin: false }), 200);
  expectStatus(await owner.delete(`${org}/invites/${withdrawn._id}`), 204);
  const declined = expectStatus(await owner.post(`${org}/invites`, { email: 'no@example.com', admin: false }), 200);
  expectStatus(await outsider.put(`/api/v1/invites/${declined._id}/decline`, { token: declined.token }), 204);
  expectStatus(await owner.put(`/api/v1/members/${w.memberIds.member}`, { admin: true }), 200);
  const joiner = await signedIn(w.url, 'joiner');
  expectStatus(await joiner.delete(`/api/v1/members/${await joinOrg(owner, w.org._id, joiner)}`), 204);
  await hookLife(owner, org, 'org alerts');

  expectStatus(await owner.put(team, { name: 'Web', color: '#654321' }), 200);
  await logoLife(owner, team);
  expectStatus(await owner.put(`${team}/members/${w.memberIds.member}`, { member: w.memberIds.member }), 200);
  expectStatus(await owner.delete(`${team}/members/${w.memberIds.member}`), 204);
  await hookLife(owner, team, 'team alerts');
  const doomed = expectStatus(await owner.post(`${org}/teams`, { name: 'Doomed' }), 200);
  const teamSite = expectStatus(
    await owner.post(`/api/v1/teams/${doomed._id}/sites`, { name: w.unique('in-team') }),
    200,
  );
  expectStatus(await owner.put(`/api/v1/sites/${teamSite._id}/password`, { password: 'secret-password' }), 200);
  expectStatus(await owner.delete(`/api/v1/teams/${doomed._id}`), 204);

  const settings = { name: w.site.name, color: '#abcdef', mainBranch: w.site.mainBranch, spa: true, domains: [] };
  expectStatus(await owner.put(site, settings), 200);
  await logoLife(owner, site);
  expectStatus(await owner.put(`${site}/password`, { password: 'secret-password' }), 200);
  expectStatus(await owner.delete(`${site}/password`), 200);
  await hookLife(owner, site, 'site alerts');
  const token = expectStatus(await owner.post(`${site}/tokens`, { name: 'ci' }), 200);
  expectStatus(await owner.delete(`${site}/tokens/${token._id}`), 204);
  const old = await uploadRelease(owner, w.site._id, 'v1', ['scratch']);
  await uploadRelease(owner, w.site._id, 'v2', ['scratch']);
  expectStatus(await owner.put(`/api/v1/releases/${old._id}`, { name: 'v1 renamed' }), 200);
  expectStatus(await owner.delete(`/api/v1/releases/${old._id}`), 204);
  const branch = expectStatus(await owner.post(`${site}/branches`, { name: 'preview' }), 200);
  const branchPath = `${site}/branches/${branch._id}`;
  expectStatus(await owner.put(`${branchPath}/name`, { name: 'staging' }), 200);
  expectStatus(await owner.put(`${branchPath}/release`, { release: w.release._id }), 200);
  expectStatus(await owner.put(`${branchPath}/password`, { password: 'secret-password' }), 200);
  expectStatus(await owner.delete(`${branchPath}/password`), 200);
  expectStatus(await owner.put(`${branchPath}/redirects`, { redirects: [] }), 200);
  expectStatus(await owner.delete(branchPath), 204);
  const doomedSite = expectStatus(await owner.post(`${team}/sites`, { name: w.unique('doomed') }), 200);
  expectStatus(await owner.delete(`/api/v1/sites/${doomedSite._id}`), 204);
  return { doomedSite, teamSite };
}

async function wholeLog(client: TestClient, orgId: string) {
  const entries: AuditEntry[] = [];
  for (let page = 0; ; page++) {
    const answer = expectStatus(await client.get(`/api/v1/orgs/${orgId}/audit?page=${page}&size=100`), 200);
    entries.push(...answer.items);
    if (entries.length >= answer.count) return entries;
  }
}

describe.each(databases)('audit log sentences on $name', ({ postgres }) => {
  let server: TestServer;
  let world: World;
  let log: AuditEntry[];
  let doomedSiteName: string;
  let teamSiteName: string;

  beforeAll(async () => {
    server = await startTestServer({ postgres });
    world = await buildWorld(server.url);
    const made = await everyOrgEvent(world);
    doomedSiteName = made.doomedSite.name;
    teamSiteName = made.teamSite.name;
    log = await wholeLog(world.clients.owner, world.org._id);
  }, 60_000);
  afterAll(() => server?.close());

  it('holds every event an organization can have, each in a sentence of its own', () => {
    const names = new Set(log.map((entry) => entry.event));
    expect([...orgEvents, ...teamEvents, ...siteEvents].filter((name) => !names.has(name))).toEqual([]);
    expect(log.filter((entry) => /caused the event|undefined|null/.test(entry.summary))).toEqual([]);
  });

  it('says who did what to which, with the names the events recorded', () => {
    const summaries = log.map((entry) => entry.summary);
    const site = world.site.name;
    expect(summaries).toEqual(
      expect.arrayContaining([
        'owner created the organization Acme',
        'owner invited someone@example.com to Acme as an admin',
        'owner withdrew the invitation of gone@example.com to Acme',
        'outsider declined the invitation to Acme',
        'admin joined Acme as an admin',
        'owner made member an admin of Acme',
        'joiner left Acme',
        "owner added the Slack hook 'org alerts' to Acme",
        "owner deleted the Slack hook 'team alerts' of the team Web",
        'owner added teammate to the team Web',
        'owner removed member from the team Web',
        'owner deleted the team Doomed',
        `owner created the site ${site}`,
        `owner set a password on ${site}`,
        `owner deleted the token 'ci' of ${site}`,
        `owner uploaded the release 'first release' to ${site}`,
        `owner set release 'first release' on branch main of ${site}`,
        `owner renamed the release 'v1' of ${site} to 'v1 renamed'`,
        `owner deleted the release 'v1 renamed' of ${site}`,
        `owner renamed the branch preview of ${site} to staging`,
        `owner set release 'first release' on branch staging of ${site}`,
        `owner saved the redirects of branch staging of ${site}`,
        `owner deleted the branch staging of ${site}`,
        `owner deleted the site ${doomedSiteName}`,
      ]),
    );
  });

  it('links each entry to what is left of it in the console', () => {
    const linkOf = (summary: string) => log.find((entry) => entry.summary === summary)?.link;
    expect(linkOf(`owner created the site ${world.site.name}`)).toBe(`/sites/${world.site._id}`);
    expect(linkOf(`owner set release 'first release' on branch main of ${world.site.name}`)).toBe(
      `/sites/${world.site._id}/branches/${world.site.mainBranch}`,
    );
    expect(linkOf(`owner deleted the branch staging of ${world.site.name}`)).toBe(`/sites/${world.site._id}/branches`);
    expect(linkOf(`owner created the site ${doomedSiteName}`)).toBeNull();
    expect(linkOf('owner deleted the team Doomed')).toBeNull();
  });

  it('names the sites that went with a deleted team, and the team', () => {
    expect(log.map((entry) => entry.summary)).toContain(`owner set a password on ${teamSiteName}`);
    expect(log.map((entry) => entry.summary)).toContain(`owner created the site ${teamSiteName}`);
    expect(log.filter((entry) => entry.summary.includes('a deleted'))).toEqual([]);
  });

  it('records no secret in the data it shows', () => {
    const text = JSON.stringify(log.map((entry) => entry.data));
    expect(text).not.toContain('secret-password');
    expect(text).not.toMatch(/"(secret|password|value|token)"/);
  });
});
