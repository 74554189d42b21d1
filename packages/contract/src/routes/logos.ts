import { z } from 'zod';
import { noContent, route } from '../route.ts';
import { ids } from './params.ts';

interface LogoOwner<P extends string> {
  kind: 'org' | 'team' | 'site';
  path: string;
  /** The path parameter naming the owner, typed so that callers pass exactly that one. */
  param: P;
  noun: string;
}

/** The three logo routes of one owner kind: upload (multipart field `file`), remove and read. */
function logoRoutes<P extends string>({ kind, path, param, noun }: LogoOwner<P>) {
  const params = ids(param);
  return {
    set: route({
      method: 'post',
      path,
      scope: `${kind}_logo`,
      summary: `Upload the logo of ${noun} (PNG, JPEG, WebP or GIF, at most 1 MiB; multipart field file)`,
      params,
      multipart: true,
      response: z.object({ logo: z.string() }),
    }),
    remove: route({
      method: 'delete',
      path,
      scope: `${kind}_logo`,
      summary: `Remove the logo of ${noun}`,
      params,
      response: noContent,
    }),
    get: route({
      method: 'get',
      path,
      scope: null,
      auth: 'public',
      summary: `The logo image of ${noun}`,
      params,
      response: z.unknown(),
    }),
  };
}

const org = logoRoutes({ kind: 'org', path: '/api/v1/orgs/:orgId/logo', param: 'orgId', noun: 'an organization' });
const team = logoRoutes({ kind: 'team', path: '/api/v1/teams/:teamId/logo', param: 'teamId', noun: 'a team' });
const site = logoRoutes({ kind: 'site', path: '/api/v1/sites/:siteId/logo', param: 'siteId', noun: 'a site' });
export const setOrgLogo = org.set;
export const removeOrgLogo = org.remove;
export const getOrgLogo = org.get;
export const setTeamLogo = team.set;
export const removeTeamLogo = team.remove;
export const getTeamLogo = team.get;
export const setSiteLogo = site.set;
export const removeSiteLogo = site.remove;
export const getSiteLogo = site.get;
