import type { Config } from '../config/types.ts';
import type { Db } from '../db/schema.ts';
import type { OutboxEvent } from '../events/outbox.ts';
import { HttpError } from '../http/errors.ts';
import { readJson } from '../lib/json.ts';
import type { BranchSite } from '../lib/urls.ts';
import { findBranch, toBranch } from '../modules/branches/queries.ts';
import { findBuild, toBuild } from '../modules/builds/buildRows.ts';
import { getOrg } from '../modules/orgs/queries.ts';
import { getRelease } from '../modules/releases/queries.ts';
import { getSite } from '../modules/sites/queries.ts';
import { getTeam } from '../modules/teams/queries.ts';

/**
 * The entity an event is about, as the API answers it, so the console can update its lists
 * without another request; null when it is gone (deleted since) or the event has none.
 */
export async function entityOf(db: Db, config: Config, event: OutboxEvent): Promise<unknown> {
  const data = readJson<Record<string, string | undefined>>(event.data);
  try {
    if (event.name.startsWith('site_release_') && data.releaseId && event.site_id) {
      if (event.name === 'site_release_deleted') return null;
      return await getRelease(db, config, await branchSiteOf(db, config, event.site_id), data.releaseId);
    }
    if (event.name.startsWith('site_build_') && data.buildId && event.site_id)
      return toBuild(await findBuild(db, event.site_id, data.buildId));
    if (event.name.startsWith('site_branch_') && data.branchId && event.site_id) {
      if (event.name === 'site_branch_deleted') return null;
      const site = await branchSiteOf(db, config, event.site_id);
      return toBranch(config, site, await findBranch(db, event.site_id, data.branchId));
    }
    if (event.name.startsWith('site_') && event.site_id && event.name !== 'site_deleted')
      return await getSite(db, config, event.site_id);
    if (event.name.startsWith('team_') && event.team_id && event.name !== 'team_deleted')
      return await getTeam(db, event.team_id);
    if (event.name.startsWith('org_') && event.org_id) return await getOrg(db, event.org_id);
  } catch (error) {
    // Gone since the event (a 404 from the query) is expected; anything else is the caller's to report.
    if (error instanceof HttpError) return null;
    throw error;
  }
  return null;
}

/** The site as its branches' addresses read it. */
async function branchSiteOf(db: Db, config: Config, siteId: string): Promise<BranchSite> {
  const site = await getSite(db, config, siteId);
  return { name: site.name, main_branch_id: site.mainBranch };
}
