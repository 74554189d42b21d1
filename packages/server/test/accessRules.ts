import type { EventName, RouteName } from '@wharf/contract';
import { sha256, tarGz, uploadForm } from './archives.ts';
import { expectStatus, type TestClient } from './client.ts';
import { TEST_PASSWORD } from './harness.ts';
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

const everyone = ['anonymous', 'outsider', 'member', 'teammate', 'admin', 'owner'] as const;
const signedIn = ['outsider', 'member', 'teammate', 'admin', 'owner'] as const;
const orgMembers = ['member', 'teammate', 'admin', 'owner'] as const;
const siteManagers = ['teammate', 'admin', 'owner'] as const;
const admins = ['admin', 'owner'] as const;
const owner = ['owner'] as const;

const orgParams = (w: World) => ({ params: { orgId: w.org._id } });
const teamParams = (w: World) => ({ params: { teamId: w.team._id } });
const siteParams = (w: World) => ({ params: { siteId: w.site._id } });

async function freshTeam(w: World) {
  return expectStatus(await w.clients.owner.post(`/api/v1/orgs/${w.org._id}/teams`, { name: w.unique('team') }), 200);
}

async function freshSite(w: World) {
  return expectStatus(await w.clients.owner.post(`/api/v1/teams/${w.team._id}/sites`, { name: w.unique('site') }), 200);
}

async function freshInvite(w: World) {
  return expectStatus(
    await w.clients.owner.post(`/api/v1/orgs/${w.org._id}/invites`, { email: 'new@example.com', admin: false }),
    200,
  );
}

/** The member id of `joiner`, who joins the organization again whenever a test removed them. */
async function joinerMemberId(w: World, joiner: TestClient) {
  const current = await joiner.get(`/api/v1/orgs/${w.org._id}/member`);
  if (current.status === 200) return current.body._id as string;
  return joinOrg(w.clients.owner, w.org._id, joiner);
}

async function withLogo(w: World, path: string) {
  expectStatus(await w.clients.owner.request('POST', path, logoForm()), 200);
  return {};
}

const branchParams = (w: World, branchId = w.site.mainBranch) => ({ params: { siteId: w.site._id, branchId } });
const releaseParams = (w: World) => ({ params: { releaseId: w.release._id } });

async function freshBranch(w: World) {
  const path = `/api/v1/sites/${w.site._id}/branches`;
  return expectStatus(await w.clients.owner.post(path, { name: w.unique('branch') }), 200);
}

/** A release no branch serves any more: uploaded to a scratch branch, then replaced there. */
async function unservedRelease(w: World) {
  const scratch = w.unique('scratch');
  const release = await uploadRelease(w.clients.owner, w.site._id, 'old', [scratch]);
  await uploadRelease(w.clients.owner, w.site._id, 'new', [scratch]);
  return release;
}

/** An incremental deploy whose files the server already has. */
async function completeDeploy(w: World) {
  const files = SITE_FILES.map((f) => ({ path: f.name, hash: sha256(f.content), size: f.content.length }));
  const path = `/api/v1/sites/${w.site._id}/deploys`;
  return expectStatus(await w.clients.owner.post(path, { name: 'deploy', branches: ['main'], files }), 200);
}

async function freshHook(w: World, context: 'orgs' | 'teams' | 'sites', ownerId: string) {
  const body = { type: 'web', name: w.unique('hook'), events: [], config: { url: 'https://hooks.example.com/x' } };
  return expectStatus(await w.clients.owner.post(`/api/v1/${context}/${ownerId}/hooks`, body), 200);
}

/** The seven hook routes of one context, all allowed to the same roles. */
function hookRules(context: 'orgs' | 'teams' | 'sites', prefix: 'org' | 'team' | 'site', allow: readonly Role[]) {
  const ownerOf = (w: World) => ({ orgs: w.org._id, teams: w.team._id, sites: w.site._id })[context];
  const param = { orgs: 'orgId', teams: 'teamId', sites: 'siteId' }[context];
  const owner = (w: World) => ({ [param]: ownerOf(w) });
  const hookBody = {
    type: 'slack',
    name: 'alerts',
    events: [`${prefix === 'org' ? 'org' : prefix}_hook_created`],
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
  } as Partial<Record<RouteName, AccessRule>>;
}

/** Everybody who is not a member of the organization may take an invitation; members get 409. */
const inviteeAnswers = { member: 409, teammate: 409, admin: 409, owner: 409 } as const;

export function accessRules(joiner: TestClient): Partial<Record<RouteName, AccessRule>> {
  return {
    getSystemInfo: { allow: everyone, call: () => ({}) },
    getSystemEnv: { allow: everyone, call: () => ({}) },
    recordPageViews: { allow: signedIn, call: () => ({ body: { views: [{ path: '/orgs', count: 1 }] } }) },
    getOpenApi: { allow: everyone, call: () => ({}) },
    getAuthMethods: { allow: everyone, call: () => ({}) },
    signInInMemory: {
      allow: everyone,
      call: () => ({ body: { user: 'outsider', password: TEST_PASSWORD }, freshSession: true }),
    },
    signOut: { allow: everyone, call: () => ({ freshSession: true }) },
    getUser: { allow: signedIn, call: () => ({}) },
    disconnectUser: {
      allow: signedIn,
      call: () => ({ freshSession: true }),
      // Disconnecting ends every session of the user, the world's own included.
      after: async (w, role) => void (await w.clients[role].signIn(role)),
    },

    listOrgs: { allow: signedIn, call: () => ({}) },
    createOrg: { allow: signedIn, events: ['org_created'], call: (w) => ({ body: { name: w.unique('org') } }) },
    getOrg: { allow: orgMembers, call: orgParams },
    updateOrg: {
      allow: admins,
      events: ['org_updated'],
      call: (w) => ({ ...orgParams(w), body: { name: 'Acme', color: '#123456' } }),
    },
    getCurrentMember: { allow: orgMembers, call: orgParams },
    listMembers: { allow: orgMembers, call: (w) => ({ ...orgParams(w), query: { search: 'mem', page: 0, size: 10 } }) },
    updateMember: {
      allow: owner,
      events: ['org_member_updated'],
      call: (w) => ({ params: { memberId: w.memberIds.member }, body: { admin: false } }),
    },
    deleteMember: {
      allow: owner,
      events: ['org_member_deleted'],
      call: async (w) => ({ params: { memberId: await joinerMemberId(w, joiner) } }),
    },
    listInvites: { allow: admins, call: orgParams },
    createInvite: {
      allow: admins,
      events: ['org_invite_added'],
      call: (w) => ({ ...orgParams(w), body: { email: 'a@b.c', admin: true } }),
    },
    deleteInvite: {
      allow: admins,
      events: ['org_invite_deleted'],
      call: async (w) => ({ params: { orgId: w.org._id, inviteId: (await freshInvite(w))._id } }),
    },
    getInvite: {
      allow: signedIn,
      call: async (w) => {
        const { token } = await freshInvite(w);
        return { params: { token }, body: { token } };
      },
    },
    acceptInvite: {
      allow: ['outsider'],
      events: ['org_invite_accepted', 'org_member_joined'],
      expect: inviteeAnswers,
      call: async (w) => {
        const { _id, token } = await freshInvite(w);
        return { params: { inviteId: _id }, body: { token } };
      },
      // The outsider joined for this one call; leaving keeps them an outsider for the next routes.
      after: (w) => leave(w, w.clients.outsider),
    },
    declineInvite: {
      allow: signedIn,
      events: ['org_invite_declined'],
      call: async (w) => {
        const { _id, token } = await freshInvite(w);
        return { params: { inviteId: _id }, body: { token } };
      },
    },

    setOrgLogo: { allow: admins, events: ['org_logo_set'], call: (w) => ({ ...orgParams(w), body: logoForm() }) },
    removeOrgLogo: { allow: admins, events: ['org_logo_removed'], call: orgParams },
    getOrgLogo: {
      allow: everyone,
      call: async (w) => ({ ...orgParams(w), ...(await withLogo(w, `/api/v1/orgs/${w.org._id}/logo`)) }),
    },
    setTeamLogo: { allow: admins, events: ['team_logo_set'], call: (w) => ({ ...teamParams(w), body: logoForm() }) },
    removeTeamLogo: { allow: admins, events: ['team_logo_removed'], call: teamParams },
    getTeamLogo: {
      allow: everyone,
      call: async (w) => ({ ...teamParams(w), ...(await withLogo(w, `/api/v1/teams/${w.team._id}/logo`)) }),
    },
    setSiteLogo: {
      allow: siteManagers,
      events: ['site_logo_set'],
      call: (w) => ({ ...siteParams(w), body: logoForm() }),
    },
    removeSiteLogo: { allow: siteManagers, events: ['site_logo_removed'], call: siteParams },
    getSiteLogo: {
      allow: everyone,
      call: async (w) => ({ ...siteParams(w), ...(await withLogo(w, `/api/v1/sites/${w.site._id}/logo`)) }),
    },

    listTeams: { allow: orgMembers, call: (w) => ({ ...orgParams(w), query: { page: 0, size: 5 } }) },
    createTeam: {
      allow: admins,
      events: ['team_added'],
      call: (w) => ({ ...orgParams(w), body: { name: w.unique('team') } }),
    },
    getTeam: { allow: orgMembers, call: teamParams },
    updateTeam: {
      allow: admins,
      events: ['team_updated'],
      call: (w) => ({ ...teamParams(w), body: { name: 'Web', color: '#abcdef' } }),
    },
    deleteTeam: {
      allow: admins,
      events: ['team_deleted'],
      call: async (w) => ({ params: { teamId: (await freshTeam(w))._id } }),
    },
    listTeamSites: { allow: orgMembers, call: teamParams },
    createSite: {
      allow: admins,
      events: ['site_added'],
      call: (w) => ({ ...teamParams(w), body: { name: w.unique('site') } }),
    },
    listTeamMembers: { allow: orgMembers, call: teamParams },
    addTeamMember: {
      allow: admins,
      events: ['team_member_added'],
      call: async (w) => {
        const team = await freshTeam(w);
        return { params: { teamId: team._id, memberId: w.memberIds.member }, body: { member: w.memberIds.member } };
      },
    },
    removeTeamMember: {
      allow: admins,
      events: ['team_member_deleted'],
      call: async (w) => {
        const team = await freshTeam(w);
        const path = `/api/v1/teams/${team._id}/members/${w.memberIds.member}`;
        expectStatus(await w.clients.owner.put(path, { member: w.memberIds.member }), 200);
        return { params: { teamId: team._id, memberId: w.memberIds.member } };
      },
    },

    listOrgSites: {
      allow: orgMembers,
      call: (w) => ({ ...orgParams(w), query: { search: 'sit', page: 0, size: 10 } }),
    },
    validateSiteName: { allow: signedIn, call: (w) => ({ body: { name: w.unique('free') } }) },
    getSite: { allow: orgMembers, call: siteParams },
    updateSite: {
      allow: siteManagers,
      events: ['site_updated'],
      call: (w) => ({
        ...siteParams(w),
        body: { name: w.site.name, color: '#00ff00', mainBranch: w.site.mainBranch, spa: true, domains: [] },
      }),
    },
    deleteSite: {
      allow: admins,
      events: ['site_deleted'],
      call: async (w) => ({ params: { siteId: (await freshSite(w))._id } }),
    },
    setSiteHeaders: {
      allow: siteManagers,
      events: ['site_updated'],
      call: (w) => ({ ...siteParams(w), body: { headers: [{ name: 'X-Frame-Options', value: 'DENY' }] } }),
    },
    setSitePassword: {
      allow: siteManagers,
      events: ['site_password_set'],
      call: (w) => ({ ...siteParams(w), body: { password: 'secret' } }),
    },
    removeSitePassword: { allow: siteManagers, events: ['site_password_removed'], call: siteParams },
    getSiteTraffic: { allow: orgMembers, call: (w) => ({ ...siteParams(w), query: { hours: 24 } }) },
    listSiteTokens: { allow: siteManagers, call: siteParams },
    createSiteToken: {
      allow: siteManagers,
      events: ['site_token_added'],
      call: (w) => ({ ...siteParams(w), body: { name: 'ci' } }),
    },
    deleteSiteToken: {
      allow: siteManagers,
      events: ['site_token_deleted'],
      call: async (w) => {
        const token = expectStatus(
          await w.clients.owner.post(`/api/v1/sites/${w.site._id}/tokens`, { name: 'old' }),
          200,
        );
        return { params: { siteId: w.site._id, tokenId: token._id } };
      },
    },

    listBranches: { allow: orgMembers, call: siteParams },
    createBranch: {
      allow: siteManagers,
      events: ['site_branch_added'],
      call: (w) => ({ ...siteParams(w), body: { name: w.unique('feature/x'), releaseId: w.release._id } }),
    },
    validateBranchName: { allow: orgMembers, call: (w) => ({ ...siteParams(w), body: { name: 'main' } }) },
    getBranch: { allow: orgMembers, call: (w) => branchParams(w) },
    deleteBranch: {
      allow: siteManagers,
      events: ['site_branch_deleted'],
      call: async (w) => branchParams(w, (await freshBranch(w))._id),
    },
    renameBranch: {
      allow: siteManagers,
      events: ['site_branch_updated'],
      call: async (w) => ({ ...branchParams(w, (await freshBranch(w))._id), body: { name: w.unique('renamed') } }),
    },
    setBranchRelease: {
      allow: siteManagers,
      events: ['site_branch_release_set'],
      call: (w) => ({ ...branchParams(w), body: { release: w.release._id } }),
    },
    setBranchPassword: {
      allow: siteManagers,
      events: ['site_branch_password_set'],
      call: (w) => ({ ...branchParams(w), body: { password: 'secret' } }),
    },
    removeBranchPassword: {
      allow: siteManagers,
      events: ['site_branch_password_removed'],
      call: (w) => branchParams(w),
    },
    getBranchRedirects: { allow: orgMembers, call: (w) => branchParams(w) },
    setBranchRedirects: {
      allow: siteManagers,
      events: ['site_branch_redirects_set'],
      call: (w) => ({
        ...branchParams(w),
        body: {
          redirects: [
            { type: 'reverse_proxy', path: '/api/*', config: { url: 'http://127.0.0.1:9/', stripPathPrefix: '/api' } },
          ],
        },
      }),
    },
    setBranchHeaders: {
      allow: siteManagers,
      events: ['site_branch_updated'],
      call: (w) => ({ ...branchParams(w), body: { headers: [{ name: 'Cache-Control', value: 'no-store' }] } }),
    },

    listReleases: {
      allow: orgMembers,
      call: (w) => ({ ...siteParams(w), query: { search: 'first', page: 0, size: 10, branch: w.site.mainBranch } }),
    },
    uploadRelease: {
      allow: siteManagers,
      events: ['site_release_created', 'site_branch_release_set'],
      call: async (w) => ({ ...siteParams(w), body: uploadForm(await tarGz(SITE_FILES), 'upload', ['main']) }),
      after: restoreMainRelease,
    },
    getRelease: { allow: orgMembers, call: releaseParams },
    renameRelease: {
      allow: siteManagers,
      events: ['site_release_renamed'],
      call: (w) => ({ ...releaseParams(w), body: { name: 'first release' } }),
    },
    deleteRelease: {
      allow: siteManagers,
      events: ['site_release_deleted'],
      call: async (w) => ({ params: { releaseId: (await unservedRelease(w))._id } }),
    },
    setReleaseForms: {
      allow: siteManagers,
      call: (w) => ({
        ...releaseParams(w),
        body: { forms: [{ type: 'email', name: 'contact', recipient: 'me@example.com' }] },
      }),
    },
    createDeploy: {
      allow: siteManagers,
      call: (w) => ({
        ...siteParams(w),
        body: { name: 'inc', branches: ['main'], files: [{ path: 'index.html', hash: sha256('new'), size: 3 }] },
      }),
    },
    uploadDeployFile: {
      allow: siteManagers,
      call: async (w) => {
        const content = `content ${w.unique()}`;
        const files = [{ path: 'new.txt', hash: sha256(content), size: content.length }];
        const path = `/api/v1/sites/${w.site._id}/deploys`;
        const deploy = expectStatus(await w.clients.owner.post(path, { name: 'inc', branches: [], files }), 200);
        return {
          params: { deployId: deploy._id, hash: sha256(content) },
          body: content,
          headers: { 'content-type': 'application/octet-stream' },
        };
      },
    },
    finalizeDeploy: {
      allow: siteManagers,
      events: ['site_release_created', 'site_branch_release_set'],
      call: async (w) => ({ params: { deployId: (await completeDeploy(w))._id } }),
      after: restoreMainRelease,
    },

    listApiTokens: { allow: signedIn, call: () => ({}) },
    getApiToken: { allow: signedIn, call: async (w, role) => ({ params: { apiTokenId: await ownToken(w, role) } }) },
    createApiToken: {
      allow: signedIn,
      events: ['user_api_token_created'],
      call: () => ({ body: { name: 'ci', scopes: ['site_read'], expiresAt: null } }),
    },
    updateApiToken: {
      allow: signedIn,
      events: ['user_api_token_updated'],
      call: async (w, role) => ({
        params: { apiTokenId: await ownToken(w, role) },
        body: {
          name: 'renamed',
          activatesAt: '2020-01-01T00:00:00.000Z',
          expiresAt: null,
          scopes: ['site_read', 'site_list'],
        },
      }),
    },
    deleteApiToken: {
      allow: signedIn,
      events: ['user_api_token_deleted'],
      call: async (w, role) => ({ params: { apiTokenId: await ownToken(w, role) } }),
    },
    listApiEndpoints: { allow: signedIn, call: () => ({}) },

    ...hookRules('orgs', 'org', admins),
    ...hookRules('teams', 'team', admins),
    ...hookRules('sites', 'site', siteManagers),
  };
}

/** Puts the world's release back on the main branch, so later routes see what they expect. */
async function restoreMainRelease(w: World) {
  const path = `/api/v1/sites/${w.site._id}/branches/${w.site.mainBranch}/release`;
  expectStatus(await w.clients.owner.put(path, { release: w.release._id }), 200);
}

/** A token of the calling user (the owner's for a signed-out caller, who is refused anyway). */
async function ownToken(w: World, role: Role) {
  const client = role === 'anonymous' ? w.clients.owner : w.clients[role];
  return expectStatus(await client.post('/api/v1/api-tokens', { name: 'mine', scopes: [] }), 200)._id as string;
}

async function leave(w: World, client: TestClient) {
  const member = await client.get(`/api/v1/orgs/${w.org._id}/member`);
  if (member.status === 200) await client.delete(`/api/v1/members/${member.body._id}`);
}
