import type { RouteName } from '@wharf/contract';
import {
  type AccessRule,
  admins,
  branchParams,
  completeDeploy,
  domainOfFreshSite,
  freshBranch,
  freshSite,
  freshSubmission,
  hookRules,
  orgMembers,
  orgParams,
  ownToken,
  releaseParams,
  restoreMainRelease,
  signedIn,
  siteManagers,
  siteParams,
  unservedRelease,
} from './accessFixtures.ts';
import { sha256, tarBytes, tarGz, uploadForm } from './archives.ts';
import { expectStatus } from './client.ts';
import { SITE_FILES, type World } from './world.ts';

/** Who may call the routes of sites, their tokens, branches, releases and deploys, API tokens and hooks. */

/** A deploy, started by the owner, that lacks one new file: what its file routes take. */
async function deployOfOneFile(w: World) {
  const content = `content ${w.unique()}`;
  const files = [{ path: 'new.txt', hash: sha256(content), size: content.length }];
  const path = `/api/v1/sites/${w.site._id}/deploys`;
  const deploy = expectStatus(await w.clients.owner.post(path, { name: 'inc', branches: [], files }), 200);
  return { deployId: deploy._id as string, content };
}

export function siteRules(): Partial<Record<RouteName, AccessRule>> {
  return {
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
    verifySiteDomain: {
      allow: siteManagers,
      // No DNS record nor HTTP challenge proves the domain here: those allowed hear why, after authorisation.
      expect: { teammate: 422, admin: 422, owner: 422 },
      call: (w) => domainOfFreshSite(w, 'own'),
    },
    listSiteCertificates: { allow: orgMembers, call: siteParams },
    retrySiteCertificate: {
      allow: siteManagers,
      // A server without ACME has no certificate to order: those allowed hear so, after authorisation.
      expect: { teammate: 409, admin: 409, owner: 409 },
      call: (w) => ({ params: { siteId: w.site._id, name: `${w.site.name}.localhost` } }),
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
    setSiteRetention: {
      allow: siteManagers,
      events: ['site_updated'],
      call: (w) => ({ ...siteParams(w), body: { keepReleasesDays: 30, keepReleasesCount: 100 } }),
    },
    getSiteUsage: { allow: orgMembers, call: siteParams },
    getSiteDomainDns: {
      allow: orgMembers,
      call: (w) => domainOfFreshSite(w, 'dns'),
    },
    getSiteTraffic: { allow: orgMembers, call: (w) => ({ ...siteParams(w), query: { hours: 24 } }) },
    getSiteTrafficSummary: { allow: orgMembers, call: (w) => ({ ...siteParams(w), query: { days: 7 } }) },
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
    validateBranchName: { allow: siteManagers, call: (w) => ({ ...siteParams(w), body: { name: 'main' } }) },
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
            {
              type: 'reverse_proxy',
              path: '/api/*',
              config: { url: 'https://api.example.com/', stripPathPrefix: '/api' },
            },
          ],
        },
      }),
    },
    setBranchHeaders: {
      allow: siteManagers,
      events: ['site_branch_updated'],
      call: (w) => ({ ...branchParams(w), body: { headers: [{ name: 'Cache-Control', value: 'no-store' }] } }),
    },

    listFailedDeploys: { allow: orgMembers, call: (w) => ({ ...siteParams(w), query: { page: 0, size: 10 } }) },
    listReleases: {
      allow: orgMembers,
      call: (w) => ({ ...siteParams(w), query: { search: 'first', page: 0, size: 10, branch: w.site.mainBranch } }),
    },
    uploadRelease: {
      allow: siteManagers,
      events: ['site_release_created', 'site_branch_release_set'],
      refusalEvents: ['site_deploy_failed'],
      call: async (w) => {
        // Forced: main serves these files already, and each call must make a release.
        const body = uploadForm(await tarGz(SITE_FILES), 'upload', ['main']);
        body.append('force', 'true');
        return { ...siteParams(w), body };
      },
      after: restoreMainRelease,
    },
    getRelease: { allow: orgMembers, call: releaseParams },
    listReleaseFiles: { allow: orgMembers, call: releaseParams },
    downloadRelease: { allow: orgMembers, call: releaseParams },
    publishRelease: {
      allow: siteManagers,
      events: ['site_branch_release_set'],
      call: (w) => ({ ...releaseParams(w), body: {} }),
    },
    renameRelease: {
      allow: siteManagers,
      events: ['site_release_renamed'],
      call: (w) => ({ ...releaseParams(w), body: { name: 'first release' } }),
    },
    setReleasePassword: {
      allow: siteManagers,
      events: ['site_release_password_set'],
      call: (w) => ({ ...releaseParams(w), body: { password: 'release secret' } }),
    },
    removeReleasePassword: {
      allow: siteManagers,
      events: ['site_release_password_removed'],
      call: releaseParams,
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
    listSiteForms: { allow: orgMembers, call: siteParams },
    setSiteForms: {
      allow: siteManagers,
      call: (w) => ({ ...siteParams(w), body: { forms: [{ type: 'db', name: 'contact', branches: null }] } }),
    },
    listBranchForms: { allow: orgMembers, call: (w) => branchParams(w) },
    getDeployBase: { allow: siteManagers, call: (w) => ({ ...siteParams(w), query: { branch: 'main' } }) },
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
        const { deployId, content } = await deployOfOneFile(w);
        return {
          params: { deployId, hash: sha256(content) },
          body: content,
          headers: { 'content-type': 'application/octet-stream' },
        };
      },
    },
    uploadDeployFiles: {
      allow: siteManagers,
      call: async (w) => {
        const { deployId, content } = await deployOfOneFile(w);
        return {
          params: { deployId },
          body: await tarBytes([{ name: sha256(content), content }]),
          headers: { 'content-type': 'application/x-tar' },
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

    // Visitors' personal data: only those who manage the site read or delete it.
    listSubmissions: {
      allow: siteManagers,
      call: (w) => ({ ...siteParams(w), query: { page: 0, size: 10, form: 'feedback', spam: 'false' } }),
    },
    exportSubmissions: { allow: siteManagers, call: (w) => ({ ...siteParams(w), query: { spam: 'true' } }) },
    getSubmission: { allow: siteManagers, call: freshSubmission },
    deleteSubmission: { allow: siteManagers, call: freshSubmission },

    ...hookRules('orgs', 'org', admins),
    ...hookRules('teams', 'team', admins),
    ...hookRules('sites', 'site', siteManagers),
    ...hookRules('users', 'user', signedIn),
  };
}
