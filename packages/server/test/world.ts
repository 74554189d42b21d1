import type { Org, Release, Site, Team } from '@wharf/contract';
import { type ArchiveEntry, tarGz, uploadForm } from './archives.ts';
import { expectStatus, signedIn, TestClient } from './client.ts';

export const ROLES = ['anonymous', 'outsider', 'member', 'teammate', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

/** A tiny valid PNG (1×1 pixel). */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

export function logoForm(bytes: Buffer = PNG, type = 'image/png') {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type }), 'logo.png');
  return form;
}

/**
 * An organization with one user of each role: its owner, an admin, a plain member, a member of
 * its team, and an outsider who belongs to another organization. Built through the API only.
 */
export interface World {
  url: string;
  clients: Record<Role, TestClient>;
  org: Org;
  team: Team;
  site: Site;
  /** A release of the site, served by its main branch. */
  release: Release;
  memberIds: Record<'owner' | 'admin' | 'member' | 'teammate', string>;
  /** Each call gives a name no other test used. */
  unique(prefix?: string): string;
}

export async function joinOrg(owner: TestClient, orgId: string, joiner: TestClient, admin = false) {
  const invite = expectStatus(
    await owner.post(`/api/v1/orgs/${orgId}/invites`, { email: 'someone@example.com', admin }),
    200,
  );
  expectStatus(await joiner.put(`/api/v1/invites/${invite._id}/accept`, { token: invite.token }), 200);
  const member = expectStatus(await joiner.get(`/api/v1/orgs/${orgId}/member`), 200);
  return member._id as string;
}

/**
 * Users of every role, an organization, a team and a site whose first release `branches` serve
 * (a branch besides `main` gives a test a branch host: `main.{site}` redirects to the site's own).
 */
export async function buildWorld(url: string, branches = ['main']): Promise<World> {
  let counter = 0;
  const unique = (prefix = 'x') => `${prefix}-${Date.now().toString(36)}-${counter++}`;
  const clients = {
    anonymous: new TestClient(url),
    outsider: await signedIn(url, 'outsider'),
    member: await signedIn(url, 'member'),
    teammate: await signedIn(url, 'teammate'),
    admin: await signedIn(url, 'admin'),
    owner: await signedIn(url, 'owner'),
  } satisfies Record<Role, TestClient>;
  const { owner } = clients;
  const org = expectStatus(await owner.post('/api/v1/orgs', { name: 'Acme' }), 200);
  expectStatus(await clients.outsider.post('/api/v1/orgs', { name: 'Elsewhere' }), 200);
  const ownerMember = expectStatus(await owner.get(`/api/v1/orgs/${org._id}/member`), 200);
  const memberIds = {
    owner: ownerMember._id,
    admin: await joinOrg(owner, org._id, clients.admin, true),
    member: await joinOrg(owner, org._id, clients.member),
    teammate: await joinOrg(owner, org._id, clients.teammate),
  };
  const team = expectStatus(await owner.post(`/api/v1/orgs/${org._id}/teams`, { name: 'Web' }), 200);
  expectStatus(
    await owner.put(`/api/v1/teams/${team._id}/members/${memberIds.teammate}`, { member: memberIds.teammate }),
    200,
  );
  const site = expectStatus(await owner.post(`/api/v1/teams/${team._id}/sites`, { name: unique('site') }), 200);
  const release = await uploadRelease(owner, site._id, 'first release', branches);
  return { url, clients, org, team, site, release, memberIds, unique };
}

export const SITE_FILES = [
  { name: 'index.html', content: '<!doctype html><h1>Hello from Wharf</h1>' },
  { name: 'app.js', content: 'console.log("hello");' },
];

export async function uploadRelease(
  client: TestClient,
  siteId: string,
  name: string,
  branches: string[],
  files: ArchiveEntry[] = SITE_FILES,
) {
  // Forced: a fixture asks for a release of its own each time, even of files its branches serve already.
  const form = uploadForm(await tarGz(files), name, branches);
  form.append('force', 'true');
  const answer = await client.request('POST', `/api/v1/sites/${siteId}/releases`, form);
  return expectStatus(answer, 200);
}
