import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, signedIn, type TestClient } from '../../../test/client.ts';
import { startTestServer, type TestServer } from '../../../test/harness.ts';

describe('invitations and members', () => {
  let server: TestServer;
  let owner: TestClient;
  let orgId: string;

  beforeAll(async () => {
    server = await startTestServer();
    owner = await signedIn(server.url, 'owner');
    orgId = expectStatus(await owner.post('/api/v1/orgs', { name: 'Acme' }), 200)._id;
  });
  afterAll(() => server.close());

  const invite = async (admin: boolean) =>
    expectStatus(await owner.post(`/api/v1/orgs/${orgId}/invites`, { email: 'new@example.com', admin }), 200);

  it('makes the creator of an organization its owner', async () => {
    expect(expectStatus(await owner.get(`/api/v1/orgs/${orgId}/member`), 200)).toMatchObject({
      admin: true,
      owner: true,
    });
  });

  it('invites with a link that expires in 7 days; the invitee sees the organization', async () => {
    const created = await invite(true);
    expect(created.url).toMatch(/\/invite\?token=/);
    const days = (Date.parse(created.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    const member = await signedIn(server.url, 'member');
    const seen = expectStatus(await member.post(`/api/v1/invites/${created.token}`, { token: created.token }), 200);
    expect(seen).toMatchObject({ email: 'new@example.com', memberOptions: { admin: true }, org: { name: 'Acme' } });
  });

  it('adds the member as admin when the invite says so, and spends the token', async () => {
    const created = await invite(true);
    const admin = await signedIn(server.url, 'admin');
    const org = expectStatus(await admin.put(`/api/v1/invites/${created._id}/accept`, { token: created.token }), 200);
    expect(org.name).toBe('Acme');
    expect(expectStatus(await admin.get(`/api/v1/orgs/${orgId}/member`), 200)).toMatchObject({
      admin: true,
      owner: false,
    });
    const again = await (await signedIn(server.url, 'teammate')).put(`/api/v1/invites/${created._id}/accept`, {
      token: created.token,
    });
    expect(again.status).toBe(404);
  });

  it('declining makes the token unusable and leaves the organization as it was', async () => {
    const created = await invite(false);
    const outsider = await signedIn(server.url, 'outsider');
    expect((await outsider.put(`/api/v1/invites/${created._id}/decline`, { token: created.token })).status).toBe(204);
    expect((await outsider.put(`/api/v1/invites/${created._id}/accept`, { token: created.token })).status).toBe(404);
    expect((await outsider.get(`/api/v1/orgs/${orgId}`)).status).toBe(404);
  });

  it('refuses an expired invitation with 410 and still shows it to the invitee', async () => {
    const created = await invite(false);
    await server.app.db
      .updateTable('invites')
      .set({ expires_at: '2000-01-01T00:00:00.000Z' })
      .where('id', '=', created._id)
      .execute();
    const outsider = await signedIn(server.url, 'outsider');
    const accept = await outsider.put(`/api/v1/invites/${created._id}/accept`, { token: created.token });
    expect(accept.status).toBe(410);
    expect(accept.body.message).toBe('This invitation has expired');
    const seen = expectStatus(await outsider.post(`/api/v1/invites/${created.token}`, { token: created.token }), 200);
    expect(seen.expiresAt).toBe('2000-01-01T00:00:00.000Z');
  });

  it('never lets the owner be removed or stripped of admin', async () => {
    const self = expectStatus(await owner.get(`/api/v1/orgs/${orgId}/member`), 200);
    expect((await owner.put(`/api/v1/members/${self._id}`, { admin: false })).status).toBe(409);
    expect((await owner.delete(`/api/v1/members/${self._id}`)).status).toBe(409);
  });

  it('lets the owner toggle admin and remove members; members find each other by search', async () => {
    const created = await invite(false);
    const member = await signedIn(server.url, 'member');
    expectStatus(await member.put(`/api/v1/invites/${created._id}/accept`, { token: created.token }), 200);
    const found = expectStatus(await member.get(`/api/v1/orgs/${orgId}/members?search=mem`), 200);
    expect(found.items.map((m: { name: string }) => m.name)).toEqual(['member']);
    const memberId = found.items[0]._id;
    expect(expectStatus(await owner.put(`/api/v1/members/${memberId}`, { admin: true }), 200).admin).toBe(true);
    expect((await owner.delete(`/api/v1/members/${memberId}`)).status).toBe(204);
    expect((await member.get(`/api/v1/orgs/${orgId}`)).status).toBe(404);
  });

  it('pages members with a count of all of them', async () => {
    const page = expectStatus(await owner.get(`/api/v1/orgs/${orgId}/members?page=0&size=1`), 200);
    expect(page.items).toHaveLength(1);
    expect(page.items[0].owner).toBe(true);
    expect(page.count).toBeGreaterThan(1);
  });
});
