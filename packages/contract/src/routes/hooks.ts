import { z } from 'zod';
import { paged } from '../entities/common.ts';
import { hook, hookBody, hookDelivery } from '../entities/hook.ts';
import type { HookContext } from '../events.ts';
import { noContent, route } from '../route.ts';
import { pageQuery } from '../validation.ts';
import { ids } from './params.ts';

const contexts = {
  orgs: { param: 'orgId', scope: 'org_hook', noun: 'an organization' },
  teams: { param: 'teamId', scope: 'team_hook', noun: 'a team' },
  sites: { param: 'siteId', scope: 'site_hook', noun: 'a site' },
} as const;

/** The hook routes of one context (spec.md §7 'Hooks'): the same shape under orgs, teams and sites. */
function hookRoutes(context: HookContext) {
  const { param, scope, noun } = contexts[context];
  const base = `/api/v1/${context}/:${param}`;
  const owner = ids(param);
  const one = ids(param, 'hookId');
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
      params: ids(param, 'hookId', 'deliveryId'),
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
export const hookRoutesByContext = { orgs: orgHooks, teams: teamHooks, sites: siteHooks } as const;
