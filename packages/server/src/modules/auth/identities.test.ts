import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectStatus, signedIn, TestClient } from '../../../test/client.ts';
import { databases, startTestServer, type TestServer } from '../../../test/harness.ts';
import { type OidcPeer, oidcEnv, startOidcPeer } from '../../../test/oidcPeer.ts';
import { signInThrough } from '../../../test/signInFlow.ts';

const ADA = { sub: 'ada-1', name: 'Ada Lovelace', preferred_username: 'ada', email: 'ada@example.test' };

for (const database of databases) {
  describe(`connected accounts, invitations and the password form beside a provider (${database.name})`, () => {
    let peer: OidcPeer;
    let server: TestServer;

    beforeAll(async () => {
      peer = await startOidcPeer();
      server = await startTestServer({ postgres: database.postgres, env: oidcEnv(peer) });
    });
    afterAll(async () => {
      await server?.close();
      await peer?.close();
    });
    beforeEach(() => peer.signInAs(ADA));

    const page = (url: URL) => `${url.pathname}${url.search}`;

    it('lists the provider before the password form', async () => {
      expect((await new TestClient(server.url).get('/auth/methods')).body).toEqual(['oidc', 'in-memory']);
    });

    it('connects a provider account to a signed-in user, who then signs in with either', async () => {
      const member = await signedIn(server.url, 'member');
      const userId = (await member.get('/api/v1/user')).body._id;
      expect(page(await signInThrough(member, 'oidc', { link: true }))).toBe('/user/security?linked=oidc');
      const identities = expectStatus(await member.get('/api/v1/user/identities'), 200);
      expect(
        identities.map((identity: { provider: string; current: boolean }) => [identity.provider, identity.current]),
      ).toEqual([
        ['in-memory', true],
        ['oidc', false],
      ]);

      const throughProvider = new TestClient(server.url);
      expect(page(await signInThrough(throughProvider, 'oidc'))).toBe('/');
      expect((await throughProvider.get('/api/v1/user')).body._id).toBe(userId);

      // The account is the member's now: another user cannot connect it too.
      const outsider = await signedIn(server.url, 'outsider');
      expect(page(await signInThrough(outsider, 'oidc', { link: true }))).toBe(
        '/user/security?error=IDENTITY_IN_USE&provider=oidc',
      );
      expect((await outsider.get('/api/v1/user/identities')).body).toHaveLength(1);
    });

    it('disconnects an account while another remains, ending the sessions it opened elsewhere', async () => {
      peer.signInAs({ sub: 'teammate-oidc', name: 'Tea Mate' });
      const teammate = await signedIn(server.url, 'teammate');
      await signInThrough(teammate, 'oidc', { link: true });
      const elsewhere = await signedIn(server.url, 'teammate');
      const throughProvider = new TestClient(server.url);
      await signInThrough(throughProvider, 'oidc');

      const [passwordAccount, providerAccount] = (await throughProvider.get('/api/v1/user/identities')).body;
      expectStatus(await throughProvider.delete(`/api/v1/user/identities/${passwordAccount._id}`), 204);
      expect((await elsewhere.get('/api/v1/user')).status).toBe(401);
      expect((await throughProvider.get('/api/v1/user')).body.provider).toBe('oidc');

      const last = await throughProvider.delete(`/api/v1/user/identities/${providerAccount._id}`);
      expect(last.status).toBe(409);
      expect(last.body.code).toBe('LAST_IDENTITY');
      const foreign = await (await signedIn(server.url, 'owner')).delete(
        `/api/v1/user/identities/${providerAccount._id}`,
      );
      expect(foreign.body.code).toBe('IDENTITY_NOT_FOUND');
    });

    it('starts a link only for a signed-in browser, from Wharf’s own pages', async () => {
      expect((await new TestClient(server.url).visit('/auth/oidc/link', 'POST')).status).toBe(401);
      const member = await signedIn(server.url, 'member');
      const crossSite = await member.request('POST', '/auth/oidc/link', undefined, {
        origin: 'https://elsewhere.test',
      });
      expect(crossSite.status).toBe(403);
      expect(crossSite.body.code).toBe('CROSS_ORIGIN_REFUSED');
    });

    it('shows the admins which account accepted an invitation, and with which address', async () => {
      const owner = await signedIn(server.url, 'owner');
      const org = expectStatus(await owner.post('/api/v1/orgs', { name: 'Invited' }), 200);
      const invite = expectStatus(
        await owner.post(`/api/v1/orgs/${org._id}/invites`, { email: 'ada.work@example.test' }),
        200,
      );
      peer.signInAs({ sub: 'ada-invited', name: 'Ada L', preferred_username: 'ada.l', email: 'ada@home.test' });
      const ada = new TestClient(server.url);
      await signInThrough(ada, 'oidc');
      expectStatus(await ada.put(`/api/v1/invites/${invite._id}/accept`, { token: invite.token }), 200);

      const members = expectStatus(await owner.get(`/api/v1/orgs/${org._id}/members`), 200).items;
      const joined = members.find((member: { name: string }) => member.name === 'Ada L');
      expect(joined.invitation).toEqual({
        email: 'ada.work@example.test',
        provider: 'oidc',
        login: 'ada.l',
        providerEmail: 'ada@home.test',
      });
      expect(members.find((member: { owner: boolean }) => member.owner).invitation).toBeNull();
    });
  });
}

describe('an installation with the password form turned off', () => {
  let peer: OidcPeer;
  let server: TestServer;

  beforeAll(async () => {
    peer = await startOidcPeer();
    server = await startTestServer({ env: oidcEnv(peer, { WHARF_PASSWORD_SIGN_IN: 'off' }) });
  });
  afterAll(async () => {
    await server?.close();
    await peer?.close();
  });

  it('lists only the provider and refuses passwords, even of configured users', async () => {
    const client = new TestClient(server.url);
    expect((await client.get('/auth/methods')).body).toEqual(['oidc']);
    const refused = await client.post('/auth/in-memory', { user: 'owner', password: 'password' });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('SIGN_IN_METHOD_OFF');
  });
});
