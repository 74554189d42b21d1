import type { RouteName } from '@wharf/contract';
import {
  type AccessRule,
  admins,
  everyone,
  freshInvite,
  freshTeam,
  inviteeAnswers,
  joinerMemberId,
  leave,
  orgMembers,
  orgParams,
  owner,
  signedIn,
  siteManagers,
  siteParams,
  teamParams,
  withLogo,
} from './accessFixtures.ts';
import { expectStatus, type TestClient } from './client.ts';
import { TEST_PASSWORD } from './harness.ts';
import { logoForm } from './world.ts';

/** Who may call the routes of the installation, users, organizations, members, invites, teams and logos. */
export function orgRules(joiner: TestClient): Partial<Record<RouteName, AccessRule>> {
  return {
    getSystemInfo: { allow: everyone, call: () => ({}) },
    getSystemEnv: { allow: everyone, call: () => ({}) },
    recordPageViews: { allow: signedIn, call: () => ({ body: { views: [{ path: '/orgs', count: 1 }] } }) },
    getOpenApi: { allow: everyone, call: () => ({}) },
    getReleaseConfigSchema: { allow: everyone, call: () => ({}) },
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
    listIdentities: { allow: signedIn, call: () => ({}) },
    listCodeHostAccounts: { allow: signedIn, call: () => ({}) },
    listCodeHostRepositories: {
      allow: signedIn,
      call: () => ({ params: { provider: 'github' } }),
      // This installation signs in with no code host: those signed in hear so.
      expect: { outsider: 409, member: 409, teammate: 409, admin: 409, owner: 409 },
    },
    forgetRepositoryAccess: { allow: signedIn, call: () => ({ params: { provider: 'github' } }) },
    unlinkIdentity: {
      allow: [],
      call: async (w) => {
        const [ownersOnly] = expectStatus(await w.clients.owner.get('/api/v1/user/identities'), 200);
        return { params: { identityId: ownersOnly._id } };
      },
      // Nobody but its user knows of an account; its user cannot disconnect the only one.
      expect: { outsider: 404, member: 404, teammate: 404, admin: 404, owner: 409 },
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
    listAuditLog: {
      allow: admins,
      call: (w) => ({ ...orgParams(w), query: { page: 0, size: 10, siteId: w.site._id, event: 'site_added' } }),
    },
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
  };
}
