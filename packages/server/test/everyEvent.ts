import { setTimeout as sleep } from 'node:timers/promises';
import { uploadForm } from './archives.ts';
import { expectStatus, signedIn, type TestClient } from './client.ts';
import { type CodeHostPeer, startGithubPeer } from './codeHostPeers.ts';
import { type GitServer, startGitServer } from './gitServer.ts';
import { grantRepositoryAccess } from './signInFlow.ts';
import { siteRequest } from './siteClient.ts';
import { joinOrg, logoForm, uploadRelease, type World } from './world.ts';

const FORMS_FILES = [
  { name: 'index.html', content: '<form method="post" action="/.wharf/forms/contact"></form>' },
  { name: '.wharf.yml', content: 'forms:\n  - name: contact\n    type: db\n' },
];

/** A visitor's post of the site's form, on a branch that serves a release declaring it. */
async function submitForm(w: World) {
  await uploadRelease(w.clients.owner, w.site._id, 'with a form', ['forms'], FORMS_FILES);
  const port = Number(new URL(w.url).port);
  const host = `forms.${w.site.name}.localhost:${port}`;
  const answer = await siteRequest(port, host, '/.wharf/forms/contact', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', referer: `http://${host}/` },
    body: 'name=Ada&message=hello',
  });
  if (answer.status !== 303) throw new Error(`the form post answered ${answer.status}`);
}

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

/**
 * A repository for the sweep's builds: plain files, which a build publishes as they are, with no
 * container started (nothing to install, no build command), and the server settings to build it.
 */
export interface SweepRepository {
  git: GitServer;
  /** GitHub, where the sweeper's account administers the git server's repository as `acme/sweep`. */
  github: CodeHostPeer;
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function sweepRepository(): Promise<SweepRepository> {
  const git = await startGitServer('sweep');
  await git.commit('main', 'A page', { 'index.html': '<h1>Built by Wharf</h1>' });
  const github = await startGithubPeer({ clientId: 'sweep-client', clientSecret: 'sweep-secret' });
  github.addUser({
    id: 501,
    login: 'sweeper',
    name: 'Sweeper',
    email: null,
    orgs: [],
    repositories: [{ fullName: 'acme/sweep', admin: true, httpsUrl: git.url }],
  });
  github.signInAs('sweeper');
  return {
    git,
    github,
    env: {
      WHARF_BUILD_RUNTIME: 'podman',
      WHARF_BUILD_ALLOWED_PRIVATE: '127.0.0.1',
      WHARF_EXTRA_CA_CERTS: git.caFile,
      WHARF_GITHUB_CLIENT_ID: 'sweep-client',
      WHARF_GITHUB_CLIENT_SECRET: 'sweep-secret',
      WHARF_GITHUB_URL: github.url,
    },
    close: async () => {
      await git.close();
      await github.close();
    },
  };
}

/** The webhook and the deploy key added at GitHub with the owner's account, once it granted repository access. */
async function setUpAtGithub(w: World, sweep: SweepRepository, site: string) {
  sweep.github.setRedirectUri(`${w.url}/auth/github/callback`);
  await grantRepositoryAccess(w.clients.owner, 'github', '/');
  expectStatus(
    await w.clients.owner.post(`${site}/repository/forge-setup`, { provider: 'github', repository: 'acme/sweep' }),
    200,
  );
}

async function buildEnded(owner: TestClient, site: string, buildId: string) {
  for (let tries = 0; tries < 600; tries++) {
    const build = expectStatus(await owner.get(`${site}/builds/${buildId}`), 200);
    if (!['queued', 'running'].includes(build.state)) return build;
    await sleep(100);
  }
  throw new Error(`the build ${buildId} did not end in a minute`);
}

/** Each build event: a build that succeeds, one that fails, one cancelled, one from a build hook; the cache cleared. */
async function buildLife(owner: TestClient, site: string) {
  const built = await buildEnded(owner, site, expectStatus(await owner.post(`${site}/builds`, {}), 201)._id);
  if (built.state !== 'succeeded') throw new Error(`the sweep's build ended ${built.state}: ${built.error}`);
  const missing = expectStatus(await owner.post(`${site}/builds`, { gitBranch: 'no-such-branch' }), 201);
  if ((await buildEnded(owner, site, missing._id)).state !== 'failed')
    throw new Error('a build of no branch did not fail');
  // The organization builds one at a time: the second waits behind the first, and is cancelled there.
  const first = expectStatus(await owner.post(`${site}/builds`, {}), 201);
  const second = expectStatus(await owner.post(`${site}/builds`, {}), 201);
  expectStatus(await owner.post(`${site}/builds/${second._id}/cancel`), 200);
  await buildEnded(owner, site, first._id);
  await buildEnded(owner, site, second._id);
  const hook = expectStatus(await owner.post(`${site}/build-hooks`, { name: 'CMS', gitBranch: 'main' }), 201);
  const called = await fetch(hook.url, { method: 'POST' });
  if (called.status !== 202) throw new Error(`the build hook answered ${called.status}`);
  await buildEnded(owner, site, ((await called.json()) as { buildId: string }).buildId);
  expectStatus(await owner.delete(`${site}/build-hooks/${hook._id}`), 204);
  expectStatus(await owner.delete(`${site}/build-cache`), 204);
  const variable = expectStatus(
    await owner.post(`${site}/build-variables`, { key: 'TOKEN', value: 'sweep-secret', secret: true, context: 'all' }),
    201,
  );
  expectStatus(await owner.put(`${site}/build-variables/${variable._id}`, { context: 'production' }), 200);
  expectStatus(await owner.delete(`${site}/build-variables/${variable._id}`), 204);
}

/**
 * Makes, through the API, at least one event of every name an organization's audit log holds;
 * the builds' events from the sweep's repository (`sweepRepository`).
 */
export async function everyOrgEvent(w: World, sweep: SweepRepository) {
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
  const repository = { url: sweep.git.url, productionBranch: 'main' };
  expectStatus(await owner.put(`${site}/repository`, repository), 200);
  expectStatus(await owner.put(`${site}/repository`, { ...repository, previews: false }), 200);
  await buildLife(owner, site);
  expectStatus(await owner.post(`${site}/repository/deploy-key`), 200);
  await setUpAtGithub(w, sweep, site);
  expectStatus(await owner.put(`${site}/repository/forge-token`, { token: 'glpat-example' }), 200);
  expectStatus(await owner.delete(`${site}/repository/forge-token`), 200);
  expectStatus(await owner.delete(`${site}/repository/ssh-host-key`), 200);
  expectStatus(await owner.post(`${site}/repository/webhook-secret`), 200);
  expectStatus(await owner.delete(`${site}/repository`), 204);
  // A refused upload is kept as a failed deploy, with its event.
  const refused = await owner.request('POST', `${site}/releases`, uploadForm(Buffer.from('no archive'), 'broken', []));
  if (refused.status !== 400) throw new Error(`a broken archive was answered ${refused.status}`);
  const old = await uploadRelease(owner, w.site._id, 'v1', ['scratch']);
  await uploadRelease(owner, w.site._id, 'v2', ['scratch']);
  expectStatus(await owner.put(`/api/v1/releases/${old._id}`, { name: 'v1 renamed' }), 200);
  expectStatus(await owner.put(`/api/v1/releases/${old._id}/password`, { password: 'secret-password' }), 200);
  expectStatus(await owner.delete(`/api/v1/releases/${old._id}/password`), 200);
  expectStatus(await owner.delete(`/api/v1/releases/${old._id}`), 204);
  const branch = expectStatus(await owner.post(`${site}/branches`, { name: 'preview' }), 200);
  const branchPath = `${site}/branches/${branch._id}`;
  expectStatus(await owner.put(`${branchPath}/name`, { name: 'staging' }), 200);
  expectStatus(await owner.put(`${branchPath}/release`, { release: w.release._id }), 200);
  expectStatus(await owner.put(`${branchPath}/password`, { password: 'secret-password' }), 200);
  expectStatus(await owner.delete(`${branchPath}/password`), 200);
  expectStatus(await owner.put(`${branchPath}/redirects`, { redirects: [] }), 200);
  expectStatus(await owner.delete(branchPath), 204);
  await submitForm(w);
  const doomedSite = expectStatus(await owner.post(`${team}/sites`, { name: w.unique('doomed') }), 200);
  expectStatus(await owner.delete(`/api/v1/sites/${doomedSite._id}`), 204);
  return { doomedSite, teamSite };
}
