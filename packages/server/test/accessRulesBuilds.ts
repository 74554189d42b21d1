import { randomBytes } from 'node:crypto';
import type { RouteName } from '@wharf/contract';
import { type AccessRule, everyone, orgMembers, siteManagers } from './accessFixtures.ts';
import { connectedSite } from './accessRulesRepositories.ts';
import { expectStatus } from './client.ts';
import { githubDeliveryHeaders } from './gitServer.ts';
import type { World } from './world.ts';

async function queuedBuild(w: World) {
  const siteId = await connectedSite(w);
  const build = expectStatus(await w.clients.owner.post(`/api/v1/sites/${siteId}/builds`, {}), 201);
  return { params: { siteId, buildId: build._id as string } };
}

/** A push GitHub would deliver for a fresh site, signed with its webhook secret: a new commit each call, never a replay. */
async function signedPush(w: World) {
  const siteId = await connectedSite(w);
  const { secret } = expectStatus(await w.clients.owner.get(`/api/v1/sites/${siteId}/repository/webhook-secret`), 200);
  const after = randomBytes(20).toString('hex');
  const body = JSON.stringify({ ref: 'refs/heads/main', after, head_commit: { id: after, message: 'A change' } });
  return { params: { siteId }, body, headers: githubDeliveryHeaders(secret, 'push', body) };
}

async function buildVariable(w: World) {
  const siteId = await connectedSite(w);
  const body = { key: 'API_URL', value: 'https://api.example.test', context: 'all' };
  const variable = expectStatus(await w.clients.owner.post(`/api/v1/sites/${siteId}/build-variables`, body), 201);
  return { params: { siteId, buildVariableId: variable._id as string } };
}

async function buildHook(w: World) {
  const siteId = await connectedSite(w);
  const body = { name: 'CMS', gitBranch: 'main' };
  const hook = expectStatus(await w.clients.owner.post(`/api/v1/sites/${siteId}/build-hooks`, body), 201);
  return { siteId, hook };
}

export function buildRules(): Partial<Record<RouteName, AccessRule>> {
  return {
    listBuilds: {
      allow: orgMembers,
      call: async (w) => ({ params: { siteId: (await queuedBuild(w)).params.siteId }, query: { page: 0, size: 10 } }),
    },
    startBuild: {
      allow: siteManagers,
      events: ['site_build_queued'],
      call: async (w) => ({ params: { siteId: await connectedSite(w) }, body: { gitBranch: 'main' } }),
    },
    getBuild: { allow: orgMembers, call: queuedBuild },
    getBuildLog: { allow: orgMembers, call: async (w) => ({ ...(await queuedBuild(w)), query: { after: 0 } }) },
    cancelBuild: { allow: siteManagers, events: ['site_build_cancelled'], call: queuedBuild },
    retryBuild: { allow: siteManagers, events: ['site_build_queued'], call: queuedBuild },
    clearBuildCache: {
      allow: siteManagers,
      events: ['site_build_cache_cleared'],
      call: async (w) => ({ params: { siteId: await connectedSite(w) } }),
    },
    listBuildHooks: { allow: orgMembers, call: async (w) => ({ params: { siteId: (await buildHook(w)).siteId } }) },
    createBuildHook: {
      allow: siteManagers,
      events: ['site_build_hook_created'],
      call: async (w) => ({ params: { siteId: await connectedSite(w) }, body: { name: 'CMS', gitBranch: 'main' } }),
    },
    deleteBuildHook: {
      allow: siteManagers,
      events: ['site_build_hook_deleted'],
      call: async (w) => {
        const { siteId, hook } = await buildHook(w);
        return { params: { siteId, buildHookId: hook._id } };
      },
    },
    listBuildVariables: {
      allow: orgMembers,
      call: async (w) => ({ params: { siteId: (await buildVariable(w)).params.siteId } }),
    },
    createBuildVariable: {
      allow: siteManagers,
      events: ['site_build_variable_created'],
      call: async (w) => ({
        params: { siteId: await connectedSite(w) },
        body: { key: 'TOKEN', value: 'not-to-be-shown', secret: true, context: 'production' },
      }),
    },
    updateBuildVariable: {
      allow: siteManagers,
      events: ['site_build_variable_updated'],
      call: async (w) => ({
        ...(await buildVariable(w)),
        body: { value: 'https://staging.example.test', context: 'previews' },
      }),
    },
    deleteBuildVariable: { allow: siteManagers, events: ['site_build_variable_deleted'], call: buildVariable },
    getWebhookSecret: { allow: siteManagers, call: async (w) => ({ params: { siteId: await connectedSite(w) } }) },
    renewWebhookSecret: {
      allow: siteManagers,
      events: ['site_webhook_secret_renewed'],
      call: async (w) => ({ params: { siteId: await connectedSite(w) } }),
    },
    // The signature is the credential: whoever sends a signed delivery builds, signed in or not.
    receiveWebhook: { allow: everyone, events: ['site_build_queued'], call: signedPush },
    // The address is the credential: whoever holds it builds, signed in or not.
    callBuildHook: {
      allow: everyone,
      events: ['site_build_queued'],
      call: async (w) => ({ params: { token: new URL((await buildHook(w)).hook.url).pathname.split('/').at(-1)! } }),
    },
  };
}
