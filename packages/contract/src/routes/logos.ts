import { z } from 'zod';
import { noContent, route } from '../route.ts';
import { ids } from './params.ts';

const logoOwners = {
  org: { path: '/api/v1/orgs/:orgId/logo', param: 'orgId', noun: 'an organization' },
  team: { path: '/api/v1/teams/:teamId/logo', param: 'teamId', noun: 'a team' },
  site: { path: '/api/v1/sites/:siteId/logo', param: 'siteId', noun: 'a site' },
} as const;

/** The three logo routes of one owner kind: upload (multipart field `file`), remove and read. */
function logoRoutes(kind: keyof typeof logoOwners) {
  const { path, param, noun } = logoOwners[kind];
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

const org = logoRoutes('org');
const team = logoRoutes('team');
const site = logoRoutes('site');
export const setOrgLogo = org.set;
export const removeOrgLogo = org.remove;
export const getOrgLogo = org.get;
export const setTeamLogo = team.set;
export const removeTeamLogo = team.remove;
export const getTeamLogo = team.get;
export const setSiteLogo = site.set;
export const removeSiteLogo = site.remove;
export const getSiteLogo = site.get;
