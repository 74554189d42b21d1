import { z } from 'zod';
import { certificateName, siteCertificate } from '../entities/certificate.ts';
import { nameCheck, paged } from '../entities/common.ts';
import {
  createSiteTokenBody,
  domainDns,
  domainName,
  header,
  passwordBody,
  site,
  siteHeadersBody,
  siteRetention,
  siteToken,
  siteUsage,
  updateSiteBody,
  validateSiteNameBody,
} from '../entities/site.ts';
import { trafficHour, trafficSummary } from '../entities/traffic.ts';
import { noContent, route } from '../route.ts';
import { pageQuery, search } from '../validation.ts';
import { ids } from './params.ts';

export const listOrgSites = route({
  method: 'get',
  path: '/api/v1/orgs/:orgId/sites',
  scope: 'site_list',
  summary: 'Sites of an organization, searchable by name; by name, or the last deployed first (`sort=lastDeploy`)',
  params: ids('orgId'),
  query: pageQuery.extend({
    search,
    sort: z.enum(['name', 'lastDeploy'], { error: 'Must be name or lastDeploy' }).default('name'),
  }),
  response: paged(site),
});

export const validateSiteName = route({
  method: 'post',
  path: '/api/v1/sites.validate/name',
  scope: 'site_create',
  summary: 'Whether a site name is well-formed and free',
  body: validateSiteNameBody,
  response: nameCheck,
});

export const getSite = route({
  method: 'get',
  path: '/api/v1/sites/:siteId',
  scope: 'site_read',
  summary: 'One site',
  params: ids('siteId'),
  response: site,
});

export const updateSite = route({
  method: 'put',
  path: '/api/v1/sites/:siteId',
  scope: 'site_update',
  summary: 'Change the settings of a site',
  params: ids('siteId'),
  body: updateSiteBody,
  response: site,
});

export const deleteSite = route({
  method: 'delete',
  path: '/api/v1/sites/:siteId',
  scope: 'site_delete',
  summary: 'Delete a site with its branches and releases',
  params: ids('siteId'),
  response: noContent,
});

export const verifySiteDomain = route({
  method: 'post',
  path: '/api/v1/sites/:siteId/domains/:name/verify',
  scope: 'site_update',
  summary: 'Check now that the owners of a site hold one of its custom domains (TXT record, else HTTP challenge)',
  params: ids('siteId').extend({ name: domainName }),
  response: site,
});

export const getSiteDomainDns = route({
  method: 'get',
  path: '/api/v1/sites/:siteId/domains/:name/dns',
  scope: 'site_read',
  summary:
    "The DNS records that make one of the site's custom domains reach this installation, and whether it points here now (asked of DNS at each call)",
  params: ids('siteId').extend({ name: domainName }),
  response: domainDns,
});

export const listSiteCertificates = route({
  method: 'get',
  path: '/api/v1/sites/:siteId/certificates',
  scope: 'site_read',
  summary: "The certificates Wharf obtained over ACME for a site's addresses and custom domains, with their state",
  params: ids('siteId'),
  response: z.array(siteCertificate),
});

export const retrySiteCertificate = route({
  method: 'post',
  path: '/api/v1/sites/:siteId/certificates/:name/retry',
  scope: 'site_update',
  summary:
    'Order a certificate of the site now, without waiting out the back-off of its last failure; answers its state once the order ends (or after 30 s)',
  params: ids('siteId').extend({ name: certificateName }),
  response: siteCertificate,
});

export const setSiteHeaders = route({
  method: 'put',
  path: '/api/v1/sites/:siteId/headers',
  scope: 'site_headers',
  summary: 'Set the headers every branch of a site answers with',
  params: ids('siteId'),
  body: siteHeadersBody,
  response: z.array(header),
});

export const setSitePassword = route({
  method: 'put',
  path: '/api/v1/sites/:siteId/password',
  scope: 'site_password',
  summary: 'Protect a site with a password',
  params: ids('siteId'),
  body: passwordBody,
  response: site,
});

export const removeSitePassword = route({
  method: 'delete',
  path: '/api/v1/sites/:siteId/password',
  scope: 'site_password',
  summary: 'Remove the password of a site',
  params: ids('siteId'),
  response: site,
});

export const setSiteRetention = route({
  method: 'put',
  path: '/api/v1/sites/:siteId/retention',
  scope: 'site_update',
  summary: 'Set how long a site keeps the releases no branch serves',
  params: ids('siteId'),
  body: siteRetention,
  response: site,
});

export const getSiteUsage = route({
  method: 'get',
  path: '/api/v1/sites/:siteId/usage',
  scope: 'site_read',
  summary: 'The disk the releases of a site take, each stored file counted once',
  params: ids('siteId'),
  response: siteUsage,
});

export const listSiteTokens = route({
  method: 'get',
  path: '/api/v1/sites/:siteId/tokens',
  scope: 'site_token_list',
  summary: 'Upload tokens of a site, newest first',
  params: ids('siteId'),
  response: z.array(siteToken),
});

export const createSiteToken = route({
  method: 'post',
  path: '/api/v1/sites/:siteId/tokens',
  scope: 'site_token_create',
  summary: 'Create an upload token for a site',
  params: ids('siteId'),
  body: createSiteTokenBody,
  response: siteToken,
});

export const deleteSiteToken = route({
  method: 'delete',
  path: '/api/v1/sites/:siteId/tokens/:tokenId',
  scope: 'site_token_delete',
  summary: 'Delete an upload token',
  params: ids('siteId', 'tokenId'),
  response: noContent,
});

/** A branch's id, or `releases` for every release's own address; absent: the whole site. */
const trafficBranch = z.string().min(1).max(64).optional();

export const getSiteTraffic = route({
  method: 'get',
  path: '/api/v1/sites/:siteId/traffic',
  scope: 'site_read',
  summary: 'Requests and bytes served for a site (or one of its branches), per hour',
  params: ids('siteId'),
  query: z.object({
    hours: z.coerce
      .number({ error: 'Must be a number' })
      .int()
      .min(1)
      .max(24 * 366)
      .default(72),
    branch: trafficBranch,
  }),
  response: z.array(trafficHour),
});

export const getSiteTrafficSummary = route({
  method: 'get',
  path: '/api/v1/sites/:siteId/traffic/summary',
  scope: 'site_read',
  summary:
    "What a site (or one of its branches) served over the last days: per day, in all, its most asked paths, the paths not found, the referring hosts and each branch's share",
  params: ids('siteId'),
  query: z.object({
    days: z.coerce.number({ error: 'Must be a number' }).int().min(1).max(366).default(7),
    branch: trafficBranch,
  }),
  response: trafficSummary,
});
