import { type Domain, isDomainVerified } from '@wharf/contract';
import type { BranchHosts } from '../../config/types.ts';
import type { Db } from '../../db/schema.ts';
import { type HostTarget, parseHost } from '../../lib/hosts.ts';
import { readJson } from '../../lib/json.ts';
import { flatBranchPart, shortenedPartPrefix } from '../../lib/urls.ts';
import { releaseWithSlug } from '../../releaseFiles/releaseSlug.ts';

/** What to order for a host: the certificate's name (the host, or a wildcard over it) and how to prove it. */
export interface CertificatePlan {
  name: string;
  siteId: string | null;
  challenge: 'http-01' | 'dns-01';
}

export interface HostPlanSettings {
  consoleHost: string;
  sitesHost: string;
  /** Whether wildcards can be proven over DNS-01 (`WHARF_ACME_DNS`). */
  wildcards: boolean;
  branchHosts: BranchHosts;
}

/**
 * Which certificate a host may get, or null: only hosts Wharf serves do (the console host, a
 * site's host, an existing branch's host, a verified custom domain set to `acme` and its branch
 * hosts when it exposes them), so a client naming arbitrary hosts cannot make Wharf order certificates.
 * Read from the database, so the primary's renewals and any worker's first handshake agree.
 */
export async function certificatePlanFor(
  db: Db,
  settings: HostPlanSettings,
  host: string,
): Promise<CertificatePlan | null> {
  if (host === settings.consoleHost) return { name: host, siteId: null, challenge: 'http-01' };
  if (host.endsWith(`.${settings.sitesHost}`)) return siteHostPlan(db, settings, host);
  return customDomainPlan(db, host);
}

/** The site a host under the sites host serves, when it has the release or branch the host names. */
async function siteOfHost(db: Db, target: HostTarget): Promise<{ id: string } | null> {
  if (target.kind === 'domain') return null;
  const site = await db.selectFrom('sites').select('id').where('name', '=', target.siteName).executeTakeFirst();
  if (!site) return target.kind === 'release' ? siteOfHost(db, target.otherwise) : null;
  if (target.kind === 'release') {
    const release = await releaseWithSlug(db, site.id, target.releaseSlug);
    return release ? site : siteOfHost(db, target.otherwise);
  }
  if (target.branchSlug !== null && !(await hasBranchAt(db, site.id, target.siteName, target.branchSlug))) return null;
  return site;
}

/** Whether a branch of the site has `part` as its slug or as its shortened flat part (`flatBranchPart`). */
async function hasBranchAt(db: Db, siteId: string, siteName: string, part: string) {
  const prefix = shortenedPartPrefix(part);
  const branches = await db
    .selectFrom('branches')
    .select('slug')
    .where('site_id', '=', siteId)
    // A slug holds [a-z0-9-] only: nothing in the prefix is a LIKE wildcard.
    .where((eb) =>
      prefix === null ? eb('slug', '=', part) : eb.or([eb('slug', '=', part), eb('slug', 'like', `${prefix}%`)]),
    )
    .execute();
  return branches.some(({ slug }) => slug === part || flatBranchPart(slug, siteName) === part);
}

async function siteHostPlan(db: Db, settings: HostPlanSettings, host: string): Promise<CertificatePlan | null> {
  const site = await siteOfHost(db, parseHost(host, settings.sitesHost, settings.branchHosts));
  if (!site) return null;
  // One wildcard over the host's parent serves every host beside it: `*.{sites host}` every site,
  // `*.{site}.{sites host}` every branch of that site.
  if (settings.wildcards)
    return { name: `*.${host.slice(host.indexOf('.') + 1)}`, siteId: site.id, challenge: 'dns-01' };
  return { name: host, siteId: site.id, challenge: 'http-01' };
}

async function customDomainPlan(db: Db, host: string): Promise<CertificatePlan | null> {
  const direct = await domainNamed(db, host);
  if (direct) return wantsAcme(direct.domain) ? plan(host, direct.siteId) : null;
  const dot = host.indexOf('.');
  if (dot <= 0) return null;
  const parent = await domainNamed(db, host.slice(dot + 1));
  if (!parent?.domain.exposeBranches || !wantsAcme(parent.domain)) return null;
  const branch = await db
    .selectFrom('branches')
    .select('id')
    .where('site_id', '=', parent.siteId)
    .where('slug', '=', host.slice(0, dot))
    .executeTakeFirst();
  return branch ? plan(host, parent.siteId) : null;
}

/** A domain gets certificates from ACME once its owners proved they hold it, and only if they chose it. */
function wantsAcme(domain: Domain) {
  return isDomainVerified(domain) && domain.sslConfiguration.type === 'acme';
}

function plan(host: string, siteId: string): CertificatePlan {
  return { name: host, siteId, challenge: 'http-01' };
}

/** The site that verified a custom domain: several may claim a name, one at most holds it. */
async function domainNamed(db: Db, name: string): Promise<{ siteId: string; domain: Domain } | null> {
  const row = await db
    .selectFrom('domain_claims')
    .innerJoin('sites', 'sites.id', 'domain_claims.site_id')
    .select(['sites.id', 'sites.domains'])
    .where('domain_claims.name', '=', name)
    .where('domain_claims.verified_at', 'is not', null)
    .executeTakeFirst();
  const domain = row ? readJson<Domain[]>(row.domains).find((entry) => entry.name === name) : undefined;
  return row && domain ? { siteId: row.id, domain } : null;
}

/**
 * The plan of a certificate already held, for its renewal: a host still served keeps its own, a
 * wildcard stays while wildcards can be proven and the site under it exists. Null: let it lapse.
 */
export async function planForName(db: Db, settings: HostPlanSettings, name: string): Promise<CertificatePlan | null> {
  if (!name.startsWith('*.')) {
    const plan = await certificatePlanFor(db, settings, name);
    return plan?.name === name ? plan : null;
  }
  const parent = name.slice(2);
  if (!settings.wildcards) return null;
  if (parent === settings.sitesHost) return { name, siteId: null, challenge: 'dns-01' };
  const plan = parent.endsWith(`.${settings.sitesHost}`) ? await siteHostPlan(db, settings, parent) : null;
  return plan ? { ...plan, name } : null;
}
