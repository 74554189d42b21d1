import type { RouteName } from '@wharf/contract';
import { type AccessRule, freshSite, orgMembers, siteManagers, siteParams } from './accessFixtures.ts';
import { expectStatus } from './client.ts';
import type { World } from './world.ts';

/** A fresh site with a repository connected by the owner: what the routes of a connection need. */
export async function connectedSite(w: World) {
  const site = await freshSite(w);
  const body = { url: 'https://git.example.com/shop/site.git', productionBranch: 'main' };
  expectStatus(await w.clients.owner.put(`/api/v1/sites/${site._id}/repository`, body), 200);
  return site._id as string;
}

const connectedSiteParams = async (w: World) => ({ params: { siteId: await connectedSite(w) } });

/** The access rules of a site's repository connection: its settings, deploy key, forge token and set-up. */
export function repositoryRules(): Partial<Record<RouteName, AccessRule>> {
  return {
    getSiteRepository: { allow: orgMembers, call: siteParams },
    setSiteRepository: {
      allow: siteManagers,
      events: ['site_repository_connected'],
      call: async (w) => ({
        params: { siteId: (await freshSite(w))._id },
        body: { url: 'https://git.example.com/shop/site.git', productionBranch: 'main' },
      }),
    },
    renewDeployKey: {
      allow: siteManagers,
      events: ['site_deploy_key_renewed'],
      call: async (w) => connectedSiteParams(w),
    },
    setForgeToken: {
      allow: siteManagers,
      events: ['site_forge_token_set'],
      call: async (w) => ({ ...(await connectedSiteParams(w)), body: { token: 'ghp_example' } }),
    },
    deleteForgeToken: {
      allow: siteManagers,
      events: ['site_forge_token_removed'],
      call: async (w) => connectedSiteParams(w),
    },
    setUpRepositoryAtForge: {
      allow: siteManagers,
      // This installation signs in with no code host to set the repository up with: those allowed hear so.
      expect: { teammate: 409, admin: 409, owner: 409 },
      call: async (w) => ({ ...(await connectedSiteParams(w)), body: { provider: 'github', repository: 'shop/site' } }),
    },
    forgetSshHostKey: {
      allow: siteManagers,
      events: ['site_ssh_host_key_forgotten'],
      call: async (w) => connectedSiteParams(w),
    },
    deleteSiteRepository: {
      allow: siteManagers,
      events: ['site_repository_disconnected'],
      call: async (w) => connectedSiteParams(w),
    },
  };
}
