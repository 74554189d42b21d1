import { type AuditEntry, orgEvents, siteEvents, teamEvents } from '@wharf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, type TestClient } from '../../../test/client.ts';
import { everyOrgEvent, sweepRepository } from '../../../test/everyEvent.ts';
import { databases, startTestServer, type TestServer } from '../../../test/harness.ts';
import { buildWorld, type World } from '../../../test/world.ts';

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
  let repository: Awaited<ReturnType<typeof sweepRepository>>;

  beforeAll(async () => {
    repository = await sweepRepository();
    server = await startTestServer({ postgres, env: repository.env });
    world = await buildWorld(server.url);
    const made = await everyOrgEvent(world, repository);
    doomedSiteName = made.doomedSite.name;
    teamSiteName = made.teamSite.name;
    log = await wholeLog(world.clients.owner, world.org._id);
  }, 90_000);
  afterAll(async () => {
    await server?.close();
    await repository?.close();
  });

  it('holds every event an organization can have, each in a sentence of its own', () => {
    const names = new Set(log.map((entry) => entry.event));
    expect([...orgEvents, ...teamEvents, ...siteEvents].filter((name) => !names.has(name))).toEqual([]);
    expect(log.filter((entry) => /caused the event|\b(?:undefined|null)\b/.test(entry.summary))).toEqual([]);
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
        `owner connected ${site} to the repository '${repository.git.url}'`,
        `owner changed how ${site} builds from its repository`,
        `owner queued a build of the branch 'main' of ${site}`,
        expect.stringMatching(new RegExp(`^The build of the branch 'main' \\([0-9a-f]{7}\\) of ${site} succeeded$`)),
        `The build of the branch 'no-such-branch' of ${site} failed: Could not fetch the branch no-such-branch of ${repository.git.url}`,
        `owner cancelled the build of the branch 'main' of ${site}`,
        `owner created the build hook 'CMS' of ${site}`,
        `The build hook 'CMS' queued a build of the branch 'main' of ${site}`,
        `owner deleted the build hook 'CMS' of ${site}`,
        `owner cleared the build cache of ${site}`,
        `owner added the build variable TOKEN (every build, secret) to ${site}`,
        `owner changed the build variable TOKEN (production, secret) of ${site}`,
        `owner deleted the build variable TOKEN (production, secret) of ${site}`,
        `owner replaced the deploy key of ${site}`,
        `owner disconnected ${site} from its repository`,
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
