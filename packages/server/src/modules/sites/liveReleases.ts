import type { ReleaseSource, Site } from '@wharf/contract';
import type { Config } from '../../config/types.ts';
import type { Executor } from '../../db/schema.ts';
import { readJson } from '../../lib/json.ts';
import { releaseUrl } from '../../lib/urls.ts';

type Live = NonNullable<Site['live']>;
type LastDeploy = NonNullable<Site['lastDeploy']>;

/** The release each site's main branch serves: its production release, with where it came from. */
async function liveOf(db: Executor, config: Config, sites: { id: string; name: string }[]) {
  const rows = await db
    .selectFrom('sites')
    .innerJoin('branches', 'branches.id', 'sites.main_branch_id')
    .innerJoin('releases', 'releases.id', 'branches.release_id')
    .select(['sites.id as site_id', 'sites.name as site_name', 'releases.id', 'releases.name', 'releases.created_at'])
    .select(['releases.slug', 'releases.source'])
    .where(
      'sites.id',
      'in',
      sites.map((site) => site.id),
    )
    .execute();
  return new Map(
    rows.map((row): [string, Live] => {
      const source = readJson<ReleaseSource>(row.source) ?? {};
      return [
        row.site_id,
        {
          _id: row.id,
          name: row.name,
          date: row.created_at,
          url: releaseUrl(config, row.site_name, row.slug),
          commit: source.commit ?? null,
          author: source.author ?? null,
        },
      ];
    }),
  );
}

/** Each site's newest release and newest failed deploy (one index probe each); the later of the two is its last deploy. */
async function lastDeploysOf(db: Executor, siteIds: string[]) {
  const newest = await db
    .selectFrom('sites')
    .select((eb) => [
      'sites.id',
      eb
        .selectFrom('releases')
        .select('releases.id')
        .whereRef('releases.site_id', '=', 'sites.id')
        .orderBy('releases.created_at', 'desc')
        .orderBy('releases.id', 'desc')
        .limit(1)
        .as('release_id'),
      eb
        .selectFrom('failed_deploys')
        .select('failed_deploys.id')
        .whereRef('failed_deploys.site_id', '=', 'sites.id')
        .orderBy('failed_deploys.failed_at', 'desc')
        .orderBy('failed_deploys.id', 'desc')
        .limit(1)
        .as('failure_id'),
    ])
    .where('sites.id', 'in', siteIds)
    .execute();
  const releaseIds = newest.flatMap((row) => (row.release_id ? [row.release_id] : []));
  const failureIds = newest.flatMap((row) => (row.failure_id ? [row.failure_id] : []));
  const releases = releaseIds.length
    ? await db.selectFrom('releases').select(['site_id', 'name', 'created_at']).where('id', 'in', releaseIds).execute()
    : [];
  const failures = failureIds.length
    ? await db
        .selectFrom('failed_deploys')
        .select(['site_id', 'name', 'failed_at', 'message'])
        .where('id', 'in', failureIds)
        .execute()
    : [];
  const last = new Map<string, LastDeploy>();
  for (const row of releases)
    last.set(row.site_id, { state: 'succeeded', name: row.name, at: row.created_at, message: null });
  for (const row of failures) {
    const release = last.get(row.site_id);
    if (!release || row.failed_at > release.at)
      last.set(row.site_id, { state: 'failed', name: row.name, at: row.failed_at, message: row.message });
  }
  return last;
}

/** What each site serves in production and how its last deploy went, for a list of sites at once. */
export async function liveAndLastDeploys(db: Executor, config: Config, sites: { id: string; name: string }[]) {
  if (sites.length === 0) return { live: new Map<string, Live>(), last: new Map<string, LastDeploy>() };
  // One after the other: the executor may be a transaction, which runs one statement at a time.
  const live = await liveOf(db, config, sites);
  const last = await lastDeploysOf(
    db,
    sites.map((site) => site.id),
  );
  return { live, last };
}
