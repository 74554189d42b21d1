import type { EventName, RouteName } from '@wharf/contract';
import { expectStatus, type TestClient } from './client.ts';
import { TEST_PASSWORD } from './harness.ts';
import { joinOrg, logoForm, type Role, type World } from './world.ts';

export interface Call {
  params?: Record<string, string>;
  query?: Record<string, string | number>;
  body?: unknown;
  /** The call ends the caller's session: make it from a fresh sign-in. */
  freshSession?: boolean;
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

/** Everybody who is not a member of the organization may take an invitation; members get 409. */
const inviteeAnswers = { member: 409, teammate: 409, admin: 409, owner: 409 } as const;

export function accessRules(joiner: TestClient): Partial<Record<RouteName, AccessRule>> {
  return {
    getSystemInfo: { allow: everyone, call: () => ({}) },
    getSystemEnv: { allow: everyone, call: () => ({}) },
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
  };
}

async function leave(w: World, client: TestClient) {
  const member = await client.get(`/api/v1/orgs/${w.org._id}/member`);
  if (member.status === 200) await client.delete(`/api/v1/members/${member.body._id}`);
}
