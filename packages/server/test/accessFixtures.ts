// The pieces the access rules are made of: role lists, path parameters, and things made fresh for one call.
import { type EventName, hookEventsByContext, type RouteName } from '@wharf/contract';
import { sha256 } from './archives.ts';
import { expectStatus, type TestClient } from './client.ts';
import { siteRequest } from './siteClient.ts';
import { joinOrg, logoForm, type Role, SITE_FILES, uploadRelease, type World } from './world.ts';

export interface Call {
  params?: Record<string, string>;
  query?: Record<string, string | number>;
  body?: unknown;
  /** The call ends the caller's session: make it from a fresh sign-in. */
  freshSession?: boolean;
  headers?: Record<string, string>;
}

export interface AccessRule {
  /** Who gets a 2xx; everybody else 401 (signed out), 404 (outside the organization) or 403. */
  allow: readonly Role[];
  /** The events one successful call records. */
  events?: EventName[];
  /** A valid call, with whatever it needs created beforehand through the owner. */
  call(world: World, role: Role): Promise<Call> | Call;
  /** Answers that differ from the rule above, with the reason in a comment. */
  expect?: Partial<Record<Role, number>>;
  /** Puts the world back as it was after a successful call. */
  after?(world: World, role: Role): Promise<void>;
}

export const everyone = ['anonymous', 'outsider', 'member', 'teammate', 'admin', 'owner'] as const;
export const signedIn = ['outsider', 'member', 'teammate', 'admin', 'owner'] as const;
export const orgMembers = ['member', 'teammate', 'admin', 'owner'] as const;
export const siteManagers = ['teammate', 'admin', 'owner'] as const;
export const admins = ['admin', 'owner'] as const;
export const owner = ['owner'] as const;

export const orgParams = (w: World) => ({ params: { orgId: w.org._id } });
export const teamParams = (w: World) => ({ params: { teamId: w.team._id } });
export const siteParams = (w: World) => ({ params: { siteId: w.site._id } });

export async function freshTeam(w: World) {
  return expectStatus(await w.clients.owner.post(`/api/v1/orgs/${w.org._id}/teams`, { name: w.unique('team') }), 200);
}

export async function freshSite(w: World) {
  return expectStatus(await w.clients.owner.post(`/api/v1/teams/${w.team._id}/sites`, { name: w.unique('site') }), 200);
}

export async function freshInvite(w: World) {
  return expectStatus(
    await w.clients.owner.post(`/api/v1/orgs/${w.org._id}/invites`, { email: 'new@example.com', admin: false }),
    200,
  );
}

/** The member id of `joiner`, who joins the organization again whenever a test removed them. */
export async function joinerMemberId(w: World, joiner: TestClient) {
  const current = await joiner.get(`/api/v1/orgs/${w.org._id}/member`);
  if (current.status === 200) return current.body._id as string;
  return joinOrg(w.clients.owner, w.org._id, joiner);
}

export async function withLogo(w: World, path: string) {
  expectStatus(await w.clients.owner.request('POST', path, logoForm()), 200);
  return {};
}

export const branchParams = (w: World, branchId = w.site.mainBranch) => ({ params: { siteId: w.site._id, branchId } });
export const releaseParams = (w: World) => ({ params: { releaseId: w.release._id } });

export async function freshBranch(w: World) {
  const path = `/api/v1/sites/${w.site._id}/branches`;
  return expectStatus(await w.clients.owner.post(path, { name: w.unique('branch') }), 200);
}

/** A release no branch serves any more: uploaded to a scratch branch, then replaced there. */
export async function unservedRelease(w: World) {
  const scratch = w.unique('scratch');
  const release = await uploadRelease(w.clients.owner, w.site._id, 'old', [scratch]);
  await uploadRelease(w.clients.owner, w.site._id, 'new', [scratch]);
  return release;
}

/** An incremental deploy whose files the server already has. */
export async function completeDeploy(w: World) {
  const files = SITE_FILES.map((f) => ({ path: f.name, hash: sha256(f.content), size: f.content.length }));
  const path = `/api/v1/sites/${w.site._id}/deploys`;
  return expectStatus(await w.clients.owner.post(path, { name: 'deploy', branches: ['main'], files }), 200);
}

async function freshHook(w: World, context: 'orgs' | 'teams' | 'sites', ownerId: string) {
  const events = [hookEventsByContext[context][0]];
  const body = { type: 'web', name: w.unique('hook'), events, config: { url: 'https://hooks.example.com/x' } };
  return expectStatus(await w.clients.owner.post(`/api/v1/${context}/${ownerId}/hooks`, body), 200);
}

/** A hook with one recorded delivery (a Send test to an address that does not resolve, which fails at once). */
async function hookWithDelivery(w: World, context: 'orgs' | 'teams' | 'sites', ownerId: string) {
  const hook = await freshHook(w, context, ownerId);
  const base = `/api/v1/${context}/${ownerId}/hooks/${hook._id}`;
  expectStatus(await w.clients.owner.post(`${base}/test`, {}), 204);
  const deadline = Date.now() + 15_000;
  for (;;) {
    const page = expectStatus(await w.clients.owner.get(`${base}/deliveries?page=0&size=1`), 200);
    if (page.items.length > 0) return { hookId: hook._id as string, deliveryId: page.items[0]._id as string };
    if (Date.now() > deadline) throw new Error('the test delivery was never recorded');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The nine hook routes of one context, all allowed to the same roles. */
export function hookRules(
  context: 'orgs' | 'teams' | 'sites',
  prefix: 'org' | 'team' | 'site',
  allow: readonly Role[],
) {
  const ownerOf = (w: World) => ({ orgs: w.org._id, teams: w.team._id, sites: w.site._id })[context];
  const param = { orgs: 'orgId', teams: 'teamId', sites: 'siteId' }[context];
  const owner = (w: World) => ({ [param]: ownerOf(w) });
  // An event the sweep seldom causes: hooks hearing every hook creation would make deliveries
  // grow with the square of the hooks the sweep creates, and the queue would fall behind.
  const hookBody = {
    type: 'slack',
    name: 'alerts',
    events: [`${prefix}_logo_removed`],
    config: { url: 'https://hooks.example.com/s' },
  };
  const existing = async (w: World) => ({
    params: { ...owner(w), hookId: (await freshHook(w, context, ownerOf(w)))._id },
  });
  const name = (verb: string) => `${prefix}Hook${verb}` as RouteName;
  return {
    [name('List')]: { allow, call: (w: World) => ({ params: owner(w) }) },
    [name('Create')]: {
      allow,
      events: [`${prefix}_hook_created`],
      call: (w: World) => ({ params: owner(w), body: hookBody }),
    },
    [name('Get')]: { allow, call: existing },
    [name('Update')]: {
      allow,
      events: [`${prefix}_hook_updated`],
      call: async (w: World) => ({ ...(await existing(w)), body: hookBody }),
    },
    [name('Remove')]: { allow, events: [`${prefix}_hook_deleted`], call: existing },
    [name('Events')]: { allow, call: (w: World) => ({ params: owner(w) }) },
    [name('Deliveries')]: {
      allow,
      call: async (w: World) => ({ ...(await existing(w)), query: { page: 0, size: 10 } }),
    },
    [name('Test')]: { allow, call: existing },
    [name('Redeliver')]: {
      allow,
      call: async (w: World) => ({ params: { ...owner(w), ...(await hookWithDelivery(w, context, ownerOf(w))) } }),
    },
  } as Partial<Record<RouteName, AccessRule>>;
}

/** Everybody who is not a member of the organization may take an invitation; members get 409. */
export const inviteeAnswers = { member: 409, teammate: 409, admin: 409, owner: 409 } as const;

/** Puts the world's release back on the main branch, so later routes see what they expect. */
export async function restoreMainRelease(w: World) {
  const path = `/api/v1/sites/${w.site._id}/branches/${w.site.mainBranch}/release`;
  expectStatus(await w.clients.owner.put(path, { release: w.release._id }), 200);
}

/** A visitor's submission of the form `feedback`, posted at the edge to the site's main branch. */
export async function freshSubmission(w: World) {
  const { owner } = w.clients;
  const main = expectStatus(await owner.get(`/api/v1/sites/${w.site._id}/branches/${w.site.mainBranch}`), 200);
  const forms = [{ type: 'db', name: 'feedback' }];
  expectStatus(await owner.put(`/api/v1/releases/${main.release}/forms`, { forms }), 200);
  const port = Number(new URL(w.url).port);
  const posted = await siteRequest(port, `${w.site.name}.localhost:${port}`, '/.wharf/forms/feedback', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: 'message=hello',
  });
  if (posted.status !== 200) throw new Error(`The form post answered ${posted.status}: ${posted.text}`);
  const newest = expectStatus(await owner.get(`/api/v1/sites/${w.site._id}/submissions?size=1`), 200);
  return { params: { siteId: w.site._id, submissionId: newest.items[0]._id as string } };
}

/** A token of the calling user (the owner's for a signed-out caller, who is refused anyway). */
export async function ownToken(w: World, role: Role) {
  const client = role === 'anonymous' ? w.clients.owner : w.clients[role];
  return expectStatus(await client.post('/api/v1/api-tokens', { name: 'mine', scopes: [] }), 200)._id as string;
}

export async function leave(w: World, client: TestClient) {
  const member = await client.get(`/api/v1/orgs/${w.org._id}/member`);
  if (member.status === 200) await client.delete(`/api/v1/members/${member.body._id}`);
}
