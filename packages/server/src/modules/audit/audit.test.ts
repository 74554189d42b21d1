import type { AuditEntry } from '@wharf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, queryString } from '../../../test/client.ts';
import { databases, startTestServer, type TestServer } from '../../../test/harness.ts';
import { buildWorld, type World } from '../../../test/world.ts';

describe.each(databases)('audit log on $name', ({ postgres }) => {
  let server: TestServer;
  let world: World;
  let otherSite: { _id: string; name: string };

  const audit = async (query: Record<string, unknown> = {}) =>
    expectStatus(await world.clients.admin.get(`/api/v1/orgs/${world.org._id}/audit${queryString(query)}`), 200) as {
      items: AuditEntry[];
      count: number;
    };

  beforeAll(async () => {
    server = await startTestServer({ postgres });
    world = await buildWorld(server.url);
    const { owner, admin } = world.clients;
    const team = expectStatus(await admin.post(`/api/v1/orgs/${world.org._id}/teams`, { name: 'Docs' }), 200);
    otherSite = expectStatus(await admin.post(`/api/v1/teams/${team._id}/sites`, { name: world.unique('docs') }), 200);
    expectStatus(await owner.put(`/api/v1/sites/${world.site._id}/password`, { password: 'hunter2-hunter2' }), 200);
    expectStatus(await owner.post('/api/v1/api-tokens', { name: 'mine', scopes: [] }), 200);
  });
  afterAll(() => server?.close());

  it('lists the events of the organization newest first, each with its actor and sentence', async () => {
    const { items, count } = await audit();
    expect(count).toBe(items.length);
    const times = items.map((entry) => entry.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(items[0]).toMatchObject({
      event: 'site_password_set',
      actor: { name: 'owner' },
      teamId: world.team._id,
      siteId: world.site._id,
      summary: `owner set a password on ${world.site.name}`,
      link: `/sites/${world.site._id}/settings`,
      data: {},
    });
    expect(items.at(-1)).toMatchObject({ event: 'org_created', summary: 'owner created the organization Acme' });
  });

  it("leaves out users' own events and other organizations' events", async () => {
    const { items } = await audit({ size: 100 });
    expect(items.map((entry) => entry.event)).not.toContain('user_api_token_created');
    expect(items.map((entry) => entry.summary)).not.toContain('outsider created the organization Elsewhere');
  });

  it('pages the log without losing or repeating an entry', async () => {
    const all = await audit({ size: 100 });
    const pages = await Promise.all([0, 1, 2].map((page) => audit({ page, size: 4 })));
    expect(pages.every((page) => page.count === all.count)).toBe(true);
    expect(pages.flatMap((page) => page.items).map((entry) => entry._id)).toEqual(
      all.items.slice(0, 12).map((entry) => entry._id),
    );
  });

  it('filters by site, team, actor and event', async () => {
    const ofSite = await audit({ siteId: otherSite._id });
    expect(ofSite.items.map((entry) => entry.summary)).toEqual([`admin created the site ${otherSite.name}`]);
    const ofTeam = await audit({ teamId: world.team._id });
    expect(ofTeam.items.length).toBeGreaterThan(0);
    expect(ofTeam.items.every((entry) => entry.teamId === world.team._id)).toBe(true);
    const byAdmin = await audit({ actorId: ofSite.items[0]!.actor!._id });
    expect(byAdmin.items.map((entry) => entry.event).sort()).toEqual(
      ['org_invite_accepted', 'org_member_joined', 'site_added', 'team_added'].sort(),
    );
    const joins = await audit({ event: 'org_member_joined' });
    expect(joins.count).toBe(3);
    expect(joins.items.every((entry) => entry.event === 'org_member_joined')).toBe(true);
    expect((await audit({ siteId: otherSite._id, event: 'site_deleted' })).count).toBe(0);
  });

  it('refuses members who are not admins, outsiders and an unknown event name', async () => {
    const path = `/api/v1/orgs/${world.org._id}/audit`;
    expect((await world.clients.member.get(path)).status).toBe(403);
    expect((await world.clients.teammate.get(path)).status).toBe(403);
    expect((await world.clients.outsider.get(path)).status).toBe(404);
    const unknown = await world.clients.owner.get(`${path}?event=site_teleported`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.details).toEqual([{ field: 'query.event', message: 'Unknown event' }]);
  });
});
