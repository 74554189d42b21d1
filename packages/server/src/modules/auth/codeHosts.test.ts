import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../../../test/client.ts';
import { type CodeHostPeer, startGiteaPeer, startGithubPeer, startGitlabPeer } from '../../../test/codeHostPeers.ts';
import { startWithCodeHost } from '../../../test/codeHostServer.ts';
import type { TestServer } from '../../../test/harness.ts';
import { signInThrough, walkToCallback } from '../../../test/signInFlow.ts';

const PROVIDERS = [
  {
    kind: 'github',
    start: startGithubPeer,
    groupsVariable: 'WHARF_GITHUB_ORGS',
    scopes: 'read:user user:email read:org',
  },
  { kind: 'gitlab', start: startGitlabPeer, groupsVariable: 'WHARF_GITLAB_GROUPS', scopes: 'read_user read_api' },
  { kind: 'gitea', start: startGiteaPeer, groupsVariable: 'WHARF_GITEA_ORGS', scopes: 'read:user read:organization' },
] as const;

const page = (url: URL) => `${url.pathname}${url.search}`;

describe.each(PROVIDERS)('signing in through $kind', ({ kind, start, groupsVariable, scopes }) => {
  let peer: CodeHostPeer;
  let server: TestServer;

  beforeAll(async () => {
    ({ peer, server } = await startWithCodeHost(kind, start, {
      withoutUsers: true,
      env: () => ({ [groupsVariable]: 'Acme' }),
    }));
    peer.addUser({ id: 101, login: 'alice', name: 'Alice Liddell', email: 'alice@acme.test', orgs: ['acme', 'chess'] });
    peer.addUser({ id: 102, login: 'bob', name: null, email: 'bob@elsewhere.test', orgs: ['elsewhere'] });
  });
  afterAll(async () => {
    await server?.close();
    await peer?.close();
  });

  it('is listed, asks for the scopes it needs with state and PKCE, and signs a member of an allowed organization in', async () => {
    const client = new TestClient(server.url);
    expect((await client.get('/auth/methods')).body).toEqual([kind]);
    peer.signInAs('alice');
    const { authorization, callback } = await walkToCallback(client, kind);
    expect(authorization.origin).toBe(peer.url);
    expect(authorization.searchParams.get('scope')).toBe(scopes);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(callback.searchParams.get('state')).toBe(authorization.searchParams.get('state'));

    const landing = await new TestClient(server.url).visit(callback.href); // another browser: refused
    expect(landing.headers.get('location')).toBe(`/login?error=SIGN_IN_STATE_MISMATCH&provider=${kind}`);
    const fresh = await walkToCallback(client, kind);
    expect(page(new URL((await client.visit(fresh.callback.href)).headers.get('location')!, server.url))).toBe('/');

    const tokenRequest = peer.requests.findLast((request) => request.method === 'POST');
    expect(new URLSearchParams(tokenRequest!.body).get('code_verifier')).toMatch(/^[\w-]{43,128}$/);
    const user = (await client.get('/api/v1/user')).body;
    expect(user).toMatchObject({ name: 'Alice Liddell', email: 'alice@acme.test', provider: kind });
    expect(user.avatarUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect((await client.get('/api/v1/user/identities')).body[0]).toMatchObject({ provider: kind, login: 'alice' });
  });

  it('refuses an account in no allowed organization, with the reason on /login', async () => {
    peer.signInAs('bob');
    const client = new TestClient(server.url);
    expect(page(await signInThrough(client, kind))).toBe(`/login?error=SIGN_IN_NOT_ALLOWED&provider=${kind}`);
    expect((await client.get('/api/v1/user')).status).toBe(401);
  });

  it('says the sign-in was cancelled when the person declines', async () => {
    peer.signInAs('alice');
    peer.denyNext();
    const client = new TestClient(server.url);
    expect(page(await signInThrough(client, kind))).toBe(`/login?error=SIGN_IN_CANCELLED&provider=${kind}`);
  });
});

describe('code hosts configured otherwise', () => {
  it('reads a GitHub account’s primary verified address when its profile shows none, and asks no organizations when none matter', async () => {
    const { peer, server } = await startWithCodeHost('github', startGithubPeer, { withoutUsers: true });
    try {
      peer.addUser({
        id: 7,
        login: 'Quiet',
        name: null,
        email: null,
        orgs: [],
        emails: [
          { email: 'old@quiet.test', primary: false, verified: true },
          { email: 'quiet@quiet.test', primary: true, verified: true },
        ],
      });
      peer.signInAs('Quiet');
      const client = new TestClient(server.url);
      const { authorization, callback } = await walkToCallback(client, 'github');
      expect(authorization.searchParams.get('scope')).toBe('read:user user:email');
      await client.visit(callback.href);
      expect((await client.get('/api/v1/user')).body).toMatchObject({ name: 'Quiet', email: 'quiet@quiet.test' });
      expect(peer.requests.some((request) => request.path.endsWith('/user/orgs'))).toBe(false);
    } finally {
      await server.close();
      await peer.close();
    }
  });

  it('refuses, without a session, when the provider does not accept Wharf’s client secret (GitHub answers 200 with an error)', async () => {
    const { peer, server } = await startWithCodeHost(
      'github',
      (options) => startGithubPeer({ ...options, clientSecret: 'rotated' }),
      { withoutUsers: true },
    );
    try {
      peer.addUser({ id: 8, login: 'alice', name: 'Alice', email: 'alice@acme.test', orgs: [] });
      peer.signInAs('alice');
      const client = new TestClient(server.url);
      expect(page(await signInThrough(client, 'github'))).toBe('/login?error=SIGN_IN_FAILED&provider=github');
      expect(client.cookieHeader).not.toContain('wharf_session');
    } finally {
      await server.close();
      await peer.close();
    }
  });

  it('lets only listed users and groups create organizations (WHARF_ORG_CREATORS)', async () => {
    const { peer, server } = await startWithCodeHost('gitlab', startGitlabPeer, {
      withoutUsers: true,
      env: () => ({ WHARF_ORG_CREATORS: 'user:gitlab:Carol, group:gitlab:platform/ops' }),
    });
    try {
      peer.addUser({ id: 1, login: 'carol', name: 'Carol', email: null, orgs: [] });
      peer.addUser({ id: 2, login: 'dan', name: 'Dan', email: null, orgs: ['platform/ops'] });
      peer.addUser({ id: 3, login: 'erin', name: 'Erin', email: null, orgs: ['platform'] });
      const mayCreate = async (login: string) => {
        peer.signInAs(login);
        const client = new TestClient(server.url);
        await signInThrough(client, 'gitlab');
        const created = await client.post('/api/v1/orgs', { name: `org of ${login}` });
        expect(created.status === 200).toBe((await client.get('/api/v1/user')).body.canCreateOrgs);
        return created.status === 200;
      };
      expect([await mayCreate('carol'), await mayCreate('dan'), await mayCreate('erin')]).toEqual([true, true, false]);
    } finally {
      await server.close();
      await peer.close();
    }
  });
});
