import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, signedIn, TestClient } from '../../../test/client.ts';
import { type CodeHostPeer, startGiteaPeer, startGithubPeer, startGitlabPeer } from '../../../test/codeHostPeers.ts';
import { startWithCodeHost } from '../../../test/codeHostServer.ts';
import type { TestServer } from '../../../test/harness.ts';
import { grantRepositoryAccess, locationOf } from '../../../test/signInFlow.ts';

const CODE_HOSTS = [
  { kind: 'github', start: startGithubPeer, scopes: 'read:user user:email repo', readOnlyKey: { read_only: true } },
  { kind: 'gitlab', start: startGitlabPeer, scopes: 'read_user api', readOnlyKey: { can_push: false } },
  { kind: 'gitea', start: startGiteaPeer, scopes: 'read:user write:repository', readOnlyKey: { read_only: true } },
] as const;

const page = (location: string) => {
  const url = new URL(location, 'http://console.invalid');
  return `${url.pathname}${url.search}`;
};

describe.each(CODE_HOSTS)('repository access through $kind', ({ kind, start, scopes, readOnlyKey }) => {
  let peer: CodeHostPeer;
  let server: TestServer;
  let owner: TestClient;
  let siteId: string;
  let orgId: string;
  const settingsPage = () => `/sites/${siteId}/settings/repository`;

  beforeAll(async () => {
    ({ peer, server } = await startWithCodeHost(kind, start));
    peer.addUser({
      id: 301,
      login: 'alice',
      name: 'Alice',
      email: 'alice@acme.test',
      orgs: [],
      repositories: [
        { fullName: 'acme/docs', admin: true, pushedAt: '2026-10-01T00:00:00Z' },
        { fullName: 'acme/shop', admin: true, private: true, defaultBranch: 'trunk', pushedAt: '2026-11-20T00:00:00Z' },
        { fullName: 'other/readonly', admin: false, pushedAt: '2026-11-02T00:00:00Z' },
      ],
    });
    peer.signInAs('alice');
    owner = await signedIn(server.url, 'owner');
    const org = expectStatus(await owner.post('/api/v1/orgs', { name: `acme-${kind}` }), 200);
    orgId = org._id;
    const team = expectStatus(await owner.post(`/api/v1/orgs/${org._id}/teams`, { name: 'web' }), 200);
    siteId = expectStatus(await owner.post(`/api/v1/teams/${team._id}/sites`, { name: `shop-${kind}` }), 200)._id;
  });
  afterAll(async () => {
    await server?.close();
    await peer?.close();
  });

  it('lists nothing until the account grants access, then links it, keeps the token and comes back to the page that asked', async () => {
    expect(expectStatus(await owner.get('/api/v1/user/code-hosts'), 200)).toEqual([
      { provider: kind, url: peer.url, login: null, repositoryAccess: false, repositoryAccessAt: null },
    ]);
    const before = await owner.get(`/api/v1/user/code-hosts/${kind}/repositories`);
    expect([before.status, before.body.code]).toEqual([409, 'REPOSITORY_ACCESS_MISSING']);

    const { authorization, landing } = await grantRepositoryAccess(owner, kind, settingsPage());
    expect(authorization.searchParams.get('scope')).toBe(scopes);
    expect(landing).toBe(`${settingsPage()}?repositories=${kind}`);
    const [account] = expectStatus(await owner.get('/api/v1/user/code-hosts'), 200);
    expect(account).toMatchObject({ provider: kind, login: 'alice', repositoryAccess: true });
    const identities = expectStatus(await owner.get('/api/v1/user/identities'), 200);
    expect(identities.map((identity: { provider: string }) => identity.provider)).toContain(kind);
    expect(JSON.stringify(expectStatus(await owner.get('/api/v1/user/identities'), 200))).not.toContain('peer_');
  });

  it('lists the repositories, private ones too, last pushed first, with what the account may do', async () => {
    const { repositories, truncated } = expectStatus(
      await owner.get(`/api/v1/user/code-hosts/${kind}/repositories`),
      200,
    );
    expect(truncated).toBe(false);
    expect(repositories.map((repository: { fullName: string }) => repository.fullName)).toEqual([
      'acme/shop',
      'other/readonly',
      'acme/docs',
    ]);
    expect(repositories[0]).toMatchObject({
      httpsUrl: `${peer.url}/acme/shop.git`,
      sshUrl: 'git@127.0.0.1:acme/shop.git',
      defaultBranch: 'trunk',
      private: true,
      canSetUp: true,
    });
    expect(repositories[1].canSetUp).toBe(false);
  });

  it('adds the deploy key and the webhook with the site’s secret, once, and mends the hook after the secret changes', async () => {
    const path = `/api/v1/sites/${siteId}/repository`;
    const notYet = await owner.post(`${path}/forge-setup`, { provider: kind, repository: 'acme/shop' });
    expect([notYet.status, notYet.body.code]).toEqual([404, 'REPOSITORY_NOT_CONNECTED']);
    const connected = expectStatus(
      await owner.put(path, { url: 'git@127.0.0.1:acme/shop.git', productionBranch: 'trunk' }),
      200,
    );
    const setUp = expectStatus(
      await owner.post(`${path}/forge-setup`, { provider: kind, repository: 'acme/shop' }),
      200,
    );
    // GitHub's token lasts: builds report with a copy. GitLab's and Gitea's expire: a forge token is still needed.
    expect(setUp.forgeToken).toBe(kind === 'github');
    const { secret } = expectStatus(await owner.get(`${path}/webhook-secret`), 200);
    const [key, hook] = peer.setUps;
    expect(key).toMatchObject({ repository: 'acme/shop', kind: 'key', body: { key: connected.deployKey.publicKey } });
    expect(key!.body).toMatchObject(readOnlyKey);
    expect(hook).toMatchObject({ repository: 'acme/shop', kind: 'hook' });
    expect(JSON.stringify(hook!.body)).toContain(JSON.stringify(connected.webhookUrl));
    expect(JSON.stringify(hook!.body)).toContain(JSON.stringify(secret));

    const renewed = expectStatus(await owner.post(`${path}/webhook-secret`), 200);
    expectStatus(await owner.post(`${path}/forge-setup`, { provider: kind, repository: 'acme/shop' }), 200);
    expect(peer.setUps).toHaveLength(2);
    expect(peer.setUps[1]!.updates).toBe(1);
    expect(JSON.stringify(peer.setUps[1]!.body)).toContain(JSON.stringify(renewed.secret));

    const audit = expectStatus(await owner.get(`/api/v1/orgs/${orgId}/audit?size=5`), 200);
    expect(JSON.stringify(audit)).toContain('site_repository_set_up_at_forge');
  });

  it('removes the key the site replaced when set up again, and leaves the repository’s other keys', async () => {
    const path = `/api/v1/sites/${siteId}/repository`;
    const [first] = peer.setUps;
    expect(first!.body.title).toMatch(new RegExp(`\\(site ${siteId}\\)$`));
    // A key someone added by hand (another machine's): not the site's to remove.
    peer.setUps.push({
      id: 1000,
      repository: 'acme/shop',
      kind: 'key',
      body: { title: 'Deploys from the office', key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOffice office' },
    });
    const renewed = expectStatus(await owner.post(`${path}/deploy-key`), 200);
    expectStatus(await owner.post(`${path}/forge-setup`, { provider: kind, repository: 'acme/shop' }), 200);
    const keys = peer.setUps.filter((setUp) => setUp.kind === 'key');
    expect(keys.map((key) => [key.body.title, Boolean(key.removed)])).toEqual([
      [first!.body.title, true],
      ['Deploys from the office', false],
      [first!.body.title, false],
    ]);
    expect(keys[2]!.body.key).toBe(renewed.deployKey.publicKey);
    expect(peer.setUps.filter((setUp) => setUp.kind === 'hook')).toHaveLength(1);
  });

  it('refuses another repository than the site’s, and one the account may not administer, in the host’s words', async () => {
    const path = `/api/v1/sites/${siteId}/repository`;
    const other = await owner.post(`${path}/forge-setup`, { provider: kind, repository: 'acme/docs' });
    expect([other.status, other.body.code]).toEqual([409, 'REPOSITORY_MISMATCH']);
    const missing = await owner.post(`${path}/forge-setup`, { provider: kind, repository: 'acme/none' });
    expect([missing.status, missing.body.code]).toEqual([404, 'CODE_HOST_REPOSITORY_NOT_FOUND']);

    expectStatus(await owner.put(path, { url: 'git@127.0.0.1:other/readonly.git', productionBranch: 'main' }), 200);
    const refused = await owner.post(`${path}/forge-setup`, { provider: kind, repository: 'other/readonly' });
    expect([refused.status, refused.body.code]).toEqual([422, 'CODE_HOST_REFUSED']);
    expect(refused.body.message).toContain('may not add');
    expect(peer.setUps).toHaveLength(4);
  });

  it('renews an expired token with its refresh token where the host rotates them (GitLab, Gitea)', async () => {
    peer.expireTokens();
    const listed = await owner.get(`/api/v1/user/code-hosts/${kind}/repositories`);
    if (kind === 'github') {
      expect([listed.status, listed.body.code]).toEqual([409, 'REPOSITORY_ACCESS_MISSING']);
      await grantRepositoryAccess(owner, kind, settingsPage());
      return;
    }
    expect(listed.status).toBe(200);
    const refreshes = peer.requests.filter(
      (request) => new URLSearchParams(request.body).get('grant_type') === 'refresh_token',
    );
    expect(refreshes).toHaveLength(1);
    // The renewed pair is kept: the next call needs no other refresh.
    expectStatus(await owner.get(`/api/v1/user/code-hosts/${kind}/repositories`), 200);
    expect(peer.requests.filter((request) => request.body.includes('grant_type=refresh_token'))).toHaveLength(1);
  });

  it('forgets a token the host no longer takes, and one the user takes back', async () => {
    peer.revokeTokens();
    const revoked = await owner.get(`/api/v1/user/code-hosts/${kind}/repositories`);
    expect([revoked.status, revoked.body.code]).toEqual([409, 'REPOSITORY_ACCESS_MISSING']);
    expect(expectStatus(await owner.get('/api/v1/user/code-hosts'), 200)[0].repositoryAccess).toBe(false);

    await grantRepositoryAccess(owner, kind, settingsPage());
    expectStatus(await owner.get(`/api/v1/user/code-hosts/${kind}/repositories`), 200);
    expectStatus(await owner.delete(`/api/v1/user/code-hosts/${kind}/repository-access`), 204);
    const forgotten = await owner.get(`/api/v1/user/code-hosts/${kind}/repositories`);
    expect(forgotten.body.code).toBe('REPOSITORY_ACCESS_MISSING');
  });
});

describe('repository access, refused', () => {
  let peer: CodeHostPeer;
  let server: TestServer;

  beforeAll(async () => {
    ({ peer, server } = await startWithCodeHost('github', startGithubPeer));
    peer.addUser({ id: 302, login: 'bob', name: 'Bob', email: null, orgs: [] });
    peer.signInAs('bob');
  });
  afterAll(async () => {
    await server?.close();
    await peer?.close();
  });

  it('comes back only to a page of this console, and needs a signed-in person', async () => {
    const owner = await signedIn(server.url, 'owner');
    for (const elsewhere of [
      '//elsewhere.example/steal',
      '/.//elsewhere.example',
      '/\\elsewhere.example',
      'https://x.example/',
    ])
      expect((await grantRepositoryAccess(owner, 'github', elsewhere)).landing).toBe(
        '/user/security?repositories=github',
      );
    expect((await grantRepositoryAccess(owner, 'github', '/sites/s1/settings/repository?tab=1')).landing).toBe(
      '/sites/s1/settings/repository?tab=1&repositories=github',
    );
    const refused = await new TestClient(server.url).visit(
      '/auth/github/repositories',
      'POST',
      new URLSearchParams({ returnTo: '/' }),
    );
    expect(refused.status).toBe(401);
  });

  it('says a code host this installation does not sign in with is not configured, and an unknown one is no code host', async () => {
    const owner = await signedIn(server.url, 'owner');
    const gitlab = await owner.get('/api/v1/user/code-hosts/gitlab/repositories');
    expect([gitlab.status, gitlab.body.code]).toEqual([409, 'CODE_HOST_NOT_CONFIGURED']);
    const unknown = await owner.get('/api/v1/user/code-hosts/bitbucket/repositories');
    expect(unknown.status).toBe(400);
    const oidc = await owner.visit('/auth/oidc/repositories', 'POST', new URLSearchParams({ returnTo: '/' }));
    expect(page(locationOf(oidc))).toBe('/?error=SIGN_IN_METHOD_UNKNOWN&provider=oidc');
  });
});
