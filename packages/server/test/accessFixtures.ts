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
  /**
   * What a refused malformed call of an authorised caller may record besides: an upload refused
   * for its body is kept as a failed deploy, with its event. A caller refused for who they are
   * records nothing, whatever their input.
   */
  refusalEvents?: EventName[];
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

/** A site of its own with one custom domain saved (not verified): the parameters of a route about that domain. */
export async function domainOfFreshSite(w: World, prefix: string) {
  const site = await freshSite(w);
  const name = `${w.unique(prefix)}.example.test`;
  const domains = [{ name, exposeBranches: false, sslConfiguration: { type: 'external' } }];
  const settings = { name: site.name, color: '#00ff00', mainBranch: site.mainBranch, spa: false, domains };
  expectStatus(await w.clients.owner.put(`/api/v1/sites/${site._id}`, settings), 200);
  return { params: { siteId: site._id, name } };
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

/** An incremental deploy whose files the server already has; forced, as main serves them already. */
export async function completeDeploy(w: World) {
  const files = SITE_FILES.map((f) => ({ path: f.name, hash: sha256(f.content), size: f.content.length }));
  const path = `/api/v1/sites/${w.site._id}/deploys`;
  const body = { name: 'deploy', branches: ['main'], files, force: true };
  return expectStatus(await w.clients.owner.post(path, body), 200);
}

type HookContextName = 'orgs' | 'teams' | 'sites' | 'users';

/** The path of a context's hooks: under its owner, or the signed-in user's own. */
function hooksPath(context: HookContextName, ownerId: string) {
  return context === 'users' ? '/api/v1/user/hooks' : `/api/v1/${context}/${ownerId}/hooks`;
}

/** Who makes a context's hooks: the owner of the world, or for the user's own the caller (the owner for nobody). */
function hookMaker(w: World, context: HookContextName, role: Role) {
  return context === 'users' && role !== 'anonymous' ? w.clients[role] : w.clients.owner;
}

/**
 * An event the bad-input sweep never causes (its calls only prepare and fail), so the fixtures'
 * hooks get no delivery while it compares the database before and after each call.
 */
const quietEvent = (context: HookContextName) =>
  // Not form_submitted: the submission fixtures post forms while they prepare.
  hookEventsByContext[context].filter((name) => name !== 'form_submitted').at(-1)!;

async function freshHook(w: World, context: HookContextName, ownerId: string, role: Role) {
  const events = [quietEvent(context)];
  const body = { type: 'email', name: w.unique('hook'), events, config: { to: 'hooks@example.com' } };
  return expectStatus(await hookMaker(w, context, role).post(hooksPath(context, ownerId), body), 200);
}

/** A hook with one delivery (its Send test, failed for good: see hookBody), made once per world, context and maker. */
const delivered = new WeakMap<World, Map<string, Promise<{ hookId: string; deliveryId: string }>>>();
function deliveredHook(w: World, context: HookContextName, ownerId: string, role: Role) {
  const maker = hookMaker(w, context, role);
  const key = `${context}:${ownerId}:${context === 'users' ? role : 'owner'}`;
  const made = delivered.get(w) ?? new Map();
  delivered.set(w, made);
  if (!made.has(key))
    made.set(
      key,
      (async () => {
        const path = hooksPath(context, ownerId);
        const events = [quietEvent(context)];
        const body = { type: 'email', name: w.unique('mailed'), events, config: { to: 'hooks@example.com' } };
        const hook = expectStatus(await maker.post(path, body), 200);
        expectStatus(await maker.post(`${path}/${hook._id}/test`), 204);
        for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
          const page = expectStatus(await maker.get(`${path}/${hook._id}/deliveries?page=0&size=1`), 200);
          if (page.items[0]) return { hookId: hook._id as string, deliveryId: page.items[0]._id as string };
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        throw new Error(`The test delivery of a ${context} hook never showed`);
      })(),
    );
  return made.get(key)!;
}

/** The nine hook routes of one context, all allowed to the same roles. */
export function hookRules(context: HookContextName, prefix: 'org' | 'team' | 'site' | 'user', allow: readonly Role[]) {
  // The user's own hooks are named by no path parameter: each caller's are their own.
  const ownerOf = (w: World) => ({ orgs: w.org._id, teams: w.team._id, sites: w.site._id, users: '' })[context];
  const param = { orgs: 'orgId', teams: 'teamId', sites: 'siteId', users: null }[context];
  const owner = (w: World): Record<string, string> => (param ? { [param]: ownerOf(w) } : {});
  // Email hooks: the test server has no SMTP_URL, so whatever they hear fails at once for good,
  // with no network, and no retry that would change the database later in a sweep.
  const hookBody = {
    type: 'email',
    name: 'alerts',
    // Not the hook events the sweep causes by the dozen: deliveries would grow with the square of the hooks.
    events: [quietEvent(context)],
    config: { to: 'alerts@example.com' },
  };
  // The user's own hooks record no event (spec.md §3 names none for them).
  const events = (verb: string) => (context === 'users' ? [] : [`${prefix}_hook_${verb}` as EventName]);
  const existing = async (w: World, role: Role) => ({
    params: { ...owner(w), hookId: (await freshHook(w, context, ownerOf(w), role))._id },
  });
  const withDelivery = async (w: World, role: Role) => {
    const { hookId, deliveryId } = await deliveredHook(w, context, ownerOf(w), role);
    return { params: { ...owner(w), hookId, deliveryId } };
  };
  const name = (verb: string) => `${prefix}Hook${verb}` as RouteName;
  return {
    [name('List')]: { allow, call: (w: World) => ({ params: owner(w) }) },
    [name('Create')]: {
      allow,
      events: events('created'),
      call: (w: World) => ({ params: owner(w), body: hookBody }),
    },
    [name('Get')]: { allow, call: existing },
    [name('Update')]: {
      allow,
      events: events('updated'),
      call: async (w: World, role: Role) => ({ ...(await existing(w, role)), body: hookBody }),
    },
    [name('Remove')]: { allow, events: events('deleted'), call: existing },
    [name('Events')]: { allow, call: (w: World) => ({ params: owner(w) }) },
    [name('Deliveries')]: {
      allow,
      call: async (w: World, role: Role) => ({ ...(await existing(w, role)), query: { page: 0, size: 10 } }),
    },
    // Both queue a delivery and record no event.
    [name('Redeliver')]: { allow, call: withDelivery },
    [name('Test')]: {
      allow,
      call: async (w: World, role: Role) => {
        const { hookId } = await deliveredHook(w, context, ownerOf(w), role);
        return { params: { ...owner(w), hookId } };
      },
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
