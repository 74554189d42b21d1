import { z } from 'zod';
import { paged } from '../entities/common.ts';
import { hook, hookBody, hookDelivery } from '../entities/hook.ts';
import type { HookContext } from '../events.ts';
import { noContent, route } from '../route.ts';
import { pageQuery } from '../validation.ts';
import { ids } from './params.ts';

type OwnerParam = 'orgId' | 'teamId' | 'siteId';

// The user's own hooks have no owner in the path: they are the signed-in user's (/api/v1/user/hooks).
const contexts: Record<HookContext, { base: string; param: OwnerParam | null; scope: string; noun: string }> = {
  orgs: { base: '/api/v1/orgs/:orgId', param: 'orgId', scope: 'org_hook', noun: 'an organization' },
  teams: { base: '/api/v1/teams/:teamId', param: 'teamId', scope: 'team_hook', noun: 'a team' },
  sites: { base: '/api/v1/sites/:siteId', param: 'siteId', scope: 'site_hook', noun: 'a site' },
  users: { base: '/api/v1/user', param: null, scope: 'user_hook', noun: 'the signed-in user' },
};

/**
 * The hook routes of one context (spec.md §7 'Hooks'): the same shape under orgs, teams, sites and
 * the signed-in user. The owner's parameter is typed as any of the three (the user's routes have none).
 */
function hookRoutes(context: HookContext) {
  const { base, param, scope, noun } = contexts[context];
  const ownerKeys: OwnerParam[] = param ? [param] : [];
  const owner = ids(...ownerKeys);
  const one = ids(...ownerKeys, 'hookId');
  return {
    list: route({
      method: 'get',
      path: `${base}/hooks`,
      scope: `${scope}_list`,
      summary: `Hooks of ${noun}`,
      params: owner,
      response: z.array(hook),
    }),
    create: route({
      method: 'post',
      path: `${base}/hooks`,
      scope: `${scope}_create`,
      summary: `Create a hook of ${noun}`,
      params: owner,
      body: hookBody,
      response: hook,
    }),
    get: route({
      method: 'get',
      path: `${base}/hooks/:hookId`,
      scope: `${scope}_read`,
      summary: `One hook of ${noun}`,
      params: one,
      response: hook,
    }),
    update: route({
      method: 'put',
      path: `${base}/hooks/:hookId`,
      scope: `${scope}_update`,
      summary: `Change a hook of ${noun}`,
      params: one,
      body: hookBody,
      response: hook,
    }),
    remove: route({
      method: 'delete',
      path: `${base}/hooks/:hookId`,
      scope: `${scope}_delete`,
      summary: `Delete a hook of ${noun}`,
      params: one,
      response: noContent,
    }),
    events: route({
      method: 'get',
      path: `${base}/hook-events`,
      scope: `${scope}_list`,
      summary: `Event names a hook of ${noun} can subscribe to`,
      params: owner,
      response: z.array(z.string()),
    }),
    deliveries: route({
      method: 'get',
      path: `${base}/hooks/:hookId/deliveries`,
      scope: `${scope}_read`,
      summary: `Deliveries of a hook of ${noun}, newest first`,
      params: one,
      query: pageQuery,
      response: paged(hookDelivery),
    }),
    redeliver: route({
      method: 'post',
      path: `${base}/hooks/:hookId/deliveries/:deliveryId/redeliver`,
      scope: `${scope}_update`,
      summary: `Send the event of a delivery of a hook of ${noun} again, as a new delivery`,
      params: ids(...ownerKeys, 'hookId', 'deliveryId'),
      response: noContent,
    }),
    test: route({
      method: 'post',
      path: `${base}/hooks/:hookId/test`,
      scope: `${scope}_update`,
      summary: `Send a ping event to a hook of ${noun}`,
      params: one,
      response: noContent,
    }),
  };
}

export const orgHooks = hookRoutes('orgs');
export const teamHooks = hookRoutes('teams');
export const siteHooks = hookRoutes('sites');
export const userHooks = hookRoutes('users');
export const hookRoutesByContext = { orgs: orgHooks, teams: teamHooks, sites: siteHooks, users: userHooks } as const;
