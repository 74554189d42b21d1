import { uploadForm } from './archives.ts';
import { expectStatus, signedIn, type TestClient } from './client.ts';
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

/** Makes, through the API, at least one event of every name an organization's audit log holds. */
export async function everyOrgEvent(w: World) {
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
  const repository = { url: 'git@git.example.com:acme/site.git', productionBranch: 'main' };
  expectStatus(await owner.put(`${site}/repository`, repository), 200);
  expectStatus(await owner.put(`${site}/repository`, { ...repository, buildCommand: 'npm run build' }), 200);
  expectStatus(await owner.post(`${site}/repository/deploy-key`), 200);
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
