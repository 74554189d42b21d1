import type { Form, Release, ReleaseSource, ReleaseUploader, RuleProblem } from '@wharf/contract';
import type { SelectQueryBuilder } from 'kysely';
import type { Config } from '../../config/types.ts';
import { jsonArrayValues } from '../../db/jsonRows.ts';
import { reusableQuery } from '../../db/reusableQuery.ts';
import type { Database, Executor } from '../../db/schema.ts';
import { httpError } from '../../http/errors.ts';
import { readJson } from '../../lib/json.ts';
import {
  countOf,
  type KeptCount,
  keptCount,
  offsetOf,
  type Page,
  pageIds,
  pagesInOnePass,
  totalOf,
} from '../../lib/paging.ts';
import { type BranchSite, branchAddress, releaseUrl } from '../../lib/urls.ts';
import { formsOfReleases } from '../forms/queries.ts';
import { releasesOfSiteNamed } from './nameSearch.ts';

/** A release as lists read it: without its rules, which only the edge needs (and which may be large). */
type ReleaseRow = Omit<Database['releases'], 'rules' | 'forms' | 'password_version'>;
const RELEASE_COLUMNS = [
  'id',
  'site_id',
  'name',
  'file_count',
  'total_size',
  'rule_problems',
  'created_at',
  'slug',
  'source',
  'uploader',
  'upload_ms',
  'new_files',
  'new_bytes',
  'password_hash',
] as const;

/** The branches pointing at each of these releases (a JSON array of their ids) now, by name, and since when. */
const branchesServing = reusableQuery((db, releaseIdsJson: string) =>
  db
    .selectFrom('branches')
    .leftJoin('branch_releases', (join) =>
      join
        .onRef('branch_releases.branch_id', '=', 'branches.id')
        .onRef('branch_releases.release_id', '=', 'branches.release_id'),
    )
    .select(['branches.id', 'branches.name', 'branches.slug', 'branches.release_id', 'branch_releases.set_at'])
    .where(
      'branches.release_id',
      'in',
      db.selectFrom(jsonArrayValues(db, releaseIdsJson).as('ids')).select('ids.value'),
    )
    .orderBy('branches.name'),
);

type ServingBranch = Awaited<ReturnType<typeof branchesServing>>[number];

/** The branches and forms of releases of one site: forms belong to the site, each release sees them through its branches. */
async function servingOf(db: Executor, site: { id: string; forms_revision?: number }, releaseIds: string[]) {
  const branches = await branchesServing(db, JSON.stringify(releaseIds));
  const servedBy = new Map<string, string[]>();
  for (const branch of branches)
    servedBy.set(branch.release_id!, [...(servedBy.get(branch.release_id!) ?? []), branch.id]);
  return { branches, formsOf: await formsOfReleases(db, site, servedBy) };
}

function toRelease(
  config: Config,
  site: BranchSite,
  row: ReleaseRow,
  { branches, formsOf }: { branches: ServingBranch[]; formsOf: (releaseId: string) => Form[] },
): Release {
  return {
    _id: row.id,
    siteId: row.site_id,
    name: row.name,
    date: row.created_at,
    slug: row.slug,
    url: releaseUrl(config, site.name, row.slug),
    source: readJson<ReleaseSource>(row.source) ?? {},
    uploader: row.uploader ? readJson<ReleaseUploader>(row.uploader) : null,
    uploadMs: row.upload_ms === null ? null : Number(row.upload_ms),
    newFiles: row.new_files === null ? null : Number(row.new_files),
    newSize: row.new_bytes === null ? null : Number(row.new_bytes),
    forms: formsOf(row.id),
    branches: branches
      .filter((branch) => branch.release_id === row.id)
      .map((branch) => ({
        _id: branch.id,
        name: branch.name,
        url: branchAddress(config, site, branch),
        since: branch.set_at,
      })),
    fileCount: row.file_count,
    size: Number(row.total_size),
    ruleProblems: readJson<RuleProblem[]>(row.rule_problems),
    hasPassword: row.password_hash !== null,
  };
}

/** Releases with the branches that point at them now, fetched in one query for the whole list. */
export async function toReleases(
  db: Executor,
  config: Config,
  site: BranchSite,
  rows: ReleaseRow[],
): Promise<Release[]> {
  if (rows.length === 0) return [];
  const serving = await servingOf(
    db,
    { id: rows[0]!.site_id },
    rows.map((row) => row.id),
  );
  return rows.map((row) => toRelease(config, site, row, serving));
}

export async function findRelease(db: Executor, releaseId: string) {
  const row = await db.selectFrom('releases').select(RELEASE_COLUMNS).where('id', '=', releaseId).executeTakeFirst();
  if (!row) throw httpError('RELEASE_NOT_FOUND', 'Release not found');
  return row;
}

export async function getRelease(db: Executor, config: Config, site: BranchSite, releaseId: string) {
  const [release] = await toReleases(db, config, site, [await findRelease(db, releaseId)]);
  return release!;
}

/** The ids of a site's releases that a filter keeps. */
function releaseIds(db: Executor, siteId: string, filter: { search?: string; branch?: string }) {
  let ids = db
    .selectFrom('releases')
    .select('releases.id')
    .where((eb) => (filter.search ? releasesOfSiteNamed(db, siteId, filter.search) : eb('site_id', '=', siteId)));
  if (filter.branch) {
    const history = db.selectFrom('branch_releases').select('release_id').where('branch_id', '=', filter.branch);
    ids = ids.where('id', 'in', history);
  }
  return ids;
}

/** One statement for a page of releases (found in the site's index) and the list's length. */
function releasePage(
  db: Executor,
  ids: ReturnType<typeof releaseIds>,
  window: { size: number; offset: number },
  kept?: KeptCount,
) {
  if (pagesInOnePass(db, kept)) {
    const rows = ids.clearSelect().select(RELEASE_COLUMNS.map((column) => `releases.${column}` as const));
    return pageIds(rows, window, newestFirst, kept);
  }
  return db
    .selectFrom(pageIds(ids, window, newestFirst, kept).as('page'))
    .innerJoin('releases', 'releases.id', 'page.id')
    .select([...RELEASE_COLUMNS.map((column) => `releases.${column}` as const), 'page.list_total'])
    .orderBy('releases.created_at', 'desc')
    .orderBy('releases.id', 'desc');
}

/** The list read most (the console's, `wharf releases`'): unfiltered, its length kept, its statement compiled once. */
const newestReleases = reusableQuery((db, siteId: string, size: number, offset: number) =>
  releasePage(db, releaseIds(db, siteId, {}), { size, offset }, { list: 'releases', ownerId: siteId }),
);

/** Releases of a site, newest first; `branch` keeps those the branch has ever pointed at. */
export async function listReleases(
  db: Executor,
  config: Config,
  site: BranchSite & { id: string; forms_revision: number },
  filter: { search?: string; branch?: string },
  page: Page,
) {
  const kept: KeptCount | undefined =
    !filter.search && !filter.branch ? { list: 'releases', ownerId: site.id } : undefined;
  // The unfiltered list is built once (newestReleases); a filtered one for each request.
  const ids = kept ? null : releaseIds(db, site.id, filter);
  const rows = ids
    ? await releasePage(db, ids, { size: page.size, offset: offsetOf(page) }).execute()
    : await newestReleases(db, site.id, page.size, offsetOf(page));
  const count = await totalOf(rows, page, () => (ids ? countOf(ids) : keptCount(db, kept!)));
  if (rows.length === 0) return { items: [], count };
  // Then the branches serving the page's releases.
  const serving = await servingOf(
    db,
    site,
    rows.map((row) => row.id),
  );
  const items = rows.map((row) => toRelease(config, site, row, serving));
  return { items, count };
}

const newestFirst = <Q extends SelectQueryBuilder<Database, 'releases', object>>(query: Q) =>
  query.orderBy('releases.created_at', 'desc').orderBy('releases.id', 'desc') as Q;
