import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, signedIn, type TestClient } from '../../test/client.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { connectRealtime, nextEvent } from '../../test/realtimeClient.ts';

const join = (socket: Socket, room: 'org' | 'site', id: string) =>
  socket.emitWithAck('join', { room, id }) as Promise<{ ok: boolean; message?: string }>;

describe('real-time events', () => {
  let server: TestServer;
  let owner: TestClient;
  let orgId: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    owner = await signedIn(server.url, 'owner');
    orgId = expectStatus(await owner.post('/api/v1/orgs', { name: 'Acme' }), 200)._id;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await server.close();
  });

  it('refuses a connection without a session', async () => {
    await expect(connectRealtime(server.url)).rejects.toThrow('Sign in first');
  });

  it('sends team_added with the team to the organization room', async () => {
    const socket = await connectRealtime(server.url, owner.cookieHeader);
    sockets.push(socket);
    expect(await join(socket, 'org', orgId)).toEqual({ ok: true });
    const arrival = nextEvent(socket, 'team_added');
    const team = expectStatus(await owner.post(`/api/v1/orgs/${orgId}/teams`, { name: 'Live' }), 200);
    const message = await arrival;
    expect(message.entity).toEqual(team);
    expect(message.orgId).toBe(orgId);
  });

  it('lets only members join the room of an organization', async () => {
    const outsider = await signedIn(server.url, 'outsider');
    const socket = await connectRealtime(server.url, outsider.cookieHeader);
    sockets.push(socket);
    expect(await join(socket, 'org', orgId)).toEqual({ ok: false, message: 'Organization not found' });
  });

  it('sends site_release_created with the release to the site room', async () => {
    const team = expectStatus(await owner.get(`/api/v1/orgs/${orgId}/teams`), 200).items[0];
    const site = expectStatus(await owner.post(`/api/v1/teams/${team._id}/sites`, { name: 'live-site' }), 200);
    const socket = await connectRealtime(server.url, owner.cookieHeader);
    sockets.push(socket);
    expect(await join(socket, 'site', site._id)).toEqual({ ok: true });
    const arrival = nextEvent(socket, 'site_release_created');
    const { uploadRelease } = await import('../../test/world.ts');
    const release = await uploadRelease(owner, site._id, 'live release', ['main']);
    const message = await arrival;
    expect((message.entity as { _id: string; name: string }).name).toBe('live release');
    expect((message.entity as { _id: string })._id).toBe(release._id);
  });

  it("announces a form submission to the site room without the visitor's fields", async () => {
    const team = expectStatus(await owner.get(`/api/v1/orgs/${orgId}/teams`), 200).items[0];
    const site = expectStatus(await owner.post(`/api/v1/teams/${team._id}/sites`, { name: 'form-site' }), 200);
    const { uploadRelease } = await import('../../test/world.ts');
    const files = [{ name: '.wharf.yml', content: 'forms:\n  - name: contact\n    type: db\n' }];
    await uploadRelease(owner, site._id, 'with a form', ['main'], files);
    const socket = await connectRealtime(server.url, owner.cookieHeader);
    sockets.push(socket);
    expect(await join(socket, 'site', site._id)).toEqual({ ok: true });
    const arrival = nextEvent(socket, 'form_submitted');
    const port = Number(new URL(server.url).port);
    const { siteRequest } = await import('../../test/siteClient.ts');
    await siteRequest(port, `form-site.localhost:${port}`, '/.wharf/forms/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=visitor%40example.com',
    });
    const message = await arrival;
    expect(message.data).toEqual({
      submissionId: expect.any(String),
      form: 'contact',
      branchId: site.mainBranch,
      branchName: 'main',
    });
    expect(JSON.stringify(message)).not.toContain('visitor@example.com');
  });
});
