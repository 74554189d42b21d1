import type { Route } from '../route.ts';
import * as apiTokens from './apiTokens.ts';
import * as audit from './audit.ts';
import * as branches from './branches.ts';
import * as builds from './builds.ts';
import * as cliLogins from './cliLogins.ts';
import * as codeHosts from './codeHosts.ts';
import * as forms from './forms.ts';
import { orgHooks, siteHooks, teamHooks, userHooks } from './hooks.ts';
import * as logos from './logos.ts';
import * as orgs from './orgs.ts';
import * as releases from './releases.ts';
import * as repositories from './repositories.ts';
import * as sites from './sites.ts';
import * as submissions from './submissions.ts';
import * as system from './system.ts';
import * as teams from './teams.ts';

function prefixed<T extends Record<string, Route>, P extends string>(prefix: P, group: T) {
  return Object.fromEntries(
    Object.entries(group).map(([key, value]) => [`${prefix}${key[0]?.toUpperCase()}${key.slice(1)}`, value]),
  ) as { [K in keyof T as `${P}${Capitalize<K & string>}`]: T[K] };
}

/**
 * Every route of the API by name: the one table the server, the console and the docs read. The
 * console's build replaces this module with the same table without its schemas
 * (packages/web/build/routeTable.ts): it must export only `api` and `allRoutes`.
 */
export const api = {
  ...system,
  ...orgs,
  ...audit,
  ...logos,
  ...teams,
  ...sites,
  ...repositories,
  ...builds,
  ...branches,
  ...releases,
  ...forms,
  ...submissions,
  ...apiTokens,
  ...cliLogins,
  ...codeHosts,
  ...prefixed('orgHook', orgHooks),
  ...prefixed('teamHook', teamHooks),
  ...prefixed('siteHook', siteHooks),
  ...prefixed('userHook', userHooks),
};
export type Api = typeof api;
export type RouteName = keyof Api;

export const allRoutes: [RouteName, Route][] = Object.entries(api) as [RouteName, Route][];
