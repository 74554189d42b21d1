import { type HookContext, hookRoutesByContext, type RouteParams } from '@wharf/contract';

/** The path parameter that names the owner; the signed-in user's own hooks have none in the path. */
const ownerParam = { orgs: 'orgId', teams: 'teamId', sites: 'siteId', users: null } as const;

// The contexts have routes of one shape that differ only in the name of the owner's path
// parameter; the contract types it as all three at once, and each call names its context's own.
type HookRoutes = typeof hookRoutesByContext.orgs;
type OwnerParams = RouteParams<HookRoutes['list']>;
type HookParams = RouteParams<HookRoutes['get']>;

/** The hook routes of one context and the path parameters that name its owner. */
export function hookApi(context: HookContext, ownerId: string) {
  const routes = hookRoutesByContext[context] as unknown as HookRoutes;
  const param = ownerParam[context];
  const owner = (param ? { [param]: ownerId } : {}) as unknown as OwnerParams;
  return { routes, owner, one: (hookId: string) => ({ ...owner, hookId }) as HookParams };
}

export interface HookScreens {
  context: HookContext;
  /** The organization, team or site whose hooks these are; the user's id for their own. */
  ownerId: string;
  /** Where the list of this context's hooks is, e.g. /sites/{siteId}/hooks. */
  base: string;
}
