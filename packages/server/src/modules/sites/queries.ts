import type { CertificateStatus, Domain, Header, Site } from '@wharf/contract';
import { sql } from 'kysely';
import type { Config } from '../../config/types.ts';
import type { Database, Db, Executor } from '../../db/schema.ts';
import { httpError } from '../../http/errors.ts';
import { readJson } from '../../lib/json.ts';
import { containing, type Page, pageOf } from '../../lib/paging.ts';
import { branchAddress, branchUrl } from '../../lib/urls.ts';
import { logoUrl } from '../logos/logoUrl.ts';
import { certificateStatusOf, STATUS_COLUMNS } from './certificateStates.ts';
import { certificateFacts } from './certificates.ts';
import { liveAndLastDeploys } from './liveReleases.ts';

type SiteRow = Database['sites'];
type BranchSummaryRow = Pick<Database['branches'], 'id' | 'site_id' | 'name' | 'slug'>;

/**
 * A domain as answers show it: a manual certificate's private key never leaves the server, and
 * what the certificate covers and until when is read from its chain.
 */
function shownDomain(stored: Domain, acme: Map<string, AcmeStatus>): Domain {
  // Domains saved before `primary` existed are not primary.
  const domain = { ...stored, primary: stored.primary === true };
  if (domain.sslConfiguration.type === 'acme') {
    const status = acme.get(domain.name);
    return status ? { ...domain, sslConfiguration: { type: 'acme', status } } : domain;
  }
  if (domain.sslConfiguration.type !== 'manual') return domain;
  const { privateKey: _secret, ...shown } = domain.sslConfiguration;
  return { ...domain, sslConfiguration: { ...shown, certificate: certificateFacts(shown.fullchain) } };
}

/** The domains of a site as stored, private keys included, for a save that keeps them. */
export async function storedDomains(db: Executor, siteId: string): Promise<Domain[]> {
  const row = await db.selectFrom('sites').select('domains').where('id', '=', siteId).executeTakeFirstOrThrow();
  return readJson<Domain[]>(row.domains);
}

type AcmeStatus = CertificateStatus;

/** The state of the certificates obtained over ACME for these sites' domains, by domain name. */
async function acmeStatuses(db: Executor, rows: SiteRow[]): Promise<Map<string, AcmeStatus>> {
  const names = rows.flatMap((row) =>
    readJson<Domain[]>(row.domains)
      .filter((domain) => domain.sslConfiguration.type === 'acme')
      .map((domain) => domain.name),
  );
  if (names.length === 0) return new Map();
  const certificates = await db
    .selectFrom('tls_certificates')
    .select(['name', ...STATUS_COLUMNS])
    .where('name', 'in', names)
    .execute();
  const now = new Date().toISOString();
  return new Map(certificates.map((row) => [row.name, certificateStatusOf(row, now)]));
}

function toSite(
  config: Config,
  row: SiteRow,
  branches: BranchSummaryRow[],
  acme: Map<string, AcmeStatus>,
  deploys: Awaited<ReturnType<typeof liveAndLastDeploys>>,
): Site {
  return {
    _id: row.id,
    name: row.name,
    color: row.color,
    logo: logoUrl('sites', row.id, row.logo_version),
    url: branchUrl(config, row.name, null),
    teamId: row.team_id,
    orgId: row.org_id,
    branches: branches.map((b) => ({ _id: b.id, name: b.name, url: branchAddress(config, row, b) })),
    mainBranch: row.main_branch_id,
    spa: row.spa === 1,
    prettyUrls: row.pretty_urls === 1,
    hasPassword: row.password_hash !== null,
    domains: readJson<Domain[]>(row.domains).map((domain) => shownDomain(domain, acme)),
    headers: readJson<Header[]>(row.headers),
    retention: { keepReleasesDays: row.keep_releases_days, keepReleasesCount: row.keep_releases_count },
    createdAt: row.created_at,
    live: deploys.live.get(row.id) ?? null,
    lastDeploy: deploys.last.get(row.id) ?? null,
  };
}

/** Sites with their branch summaries, fetched in one extra query for the whole list. */
export async function toSites(db: Executor, config: Config, rows: SiteRow[]): Promise<Site[]> {
  if (rows.length === 0) return [];
  const branches = await db
    .selectFrom('branches')
    .select(['id', 'site_id', 'name', 'slug'])
    .where(
      'site_id',
      'in',
      rows.map((row) => row.id),
    )
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const acme = await acmeStatuses(db, rows);
  const deploys = await liveAndLastDeploys(db, config, rows);
  return rows.map((row) =>
    toSite(
      config,
      row,
      branches.filter((b) => b.site_id === row.id),
      acme,
      deploys,
    ),
  );
}

export async function getSite(db: Executor, config: Config, siteId: string): Promise<Site> {
  const row = await db.selectFrom('sites').selectAll().where('id', '=', siteId).executeTakeFirst();
  if (!row) throw httpError('SITE_NOT_FOUND', 'Site not found');
  const [site] = await toSites(db, config, [row]);
  return site!;
}

export async function listTeamSites(db: Db, config: Config, teamId: string) {
  const rows = await db
    .selectFrom('sites')
    .selectAll()
    .where('team_id', '=', teamId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return toSites(db, config, rows);
}

const newestRelease = sql<string>`coalesce((select max(created_at) from releases where releases.site_id = sites.id), '')`;
const newestFailure = sql<string>`coalesce((select max(failed_at) from failed_deploys where failed_deploys.site_id = sites.id), '')`;
/** When the site last deployed, a release or a failure, for sorting (an empty text: never). */
const lastDeployedAt = sql<string>`case when ${newestRelease} > ${newestFailure} then ${newestRelease} else ${newestFailure} end`;

/** Sites of an organization by name, or the last deployed first; `search` matches part of the name. */
export async function searchOrgSites(
  db: Db,
  config: Config,
  orgId: string,
  { search, sort }: { search?: string; sort: 'name' | 'lastDeploy' },
  page: Page,
) {
  let query = db.selectFrom('sites').selectAll().where('org_id', '=', orgId);
  if (search) query = query.where(sql<string>`lower(name)`, 'like', sql<string>`${containing(search)} escape '\\'`);
  const result = await pageOf(
    query,
    page,
    (q) => (sort === 'lastDeploy' ? q.orderBy(lastDeployedAt, 'desc').orderBy('name') : q.orderBy('name')),
    (row) => row,
  );
  return { items: await toSites(db, config, result.items), count: result.count };
}

export async function isSiteNameTaken(db: Executor, name: string, exceptSiteId?: string) {
  let query = db.selectFrom('sites').select('id').where('name', '=', name);
  if (exceptSiteId) query = query.where('id', '!=', exceptSiteId);
  return (await query.executeTakeFirst()) !== undefined;
}
