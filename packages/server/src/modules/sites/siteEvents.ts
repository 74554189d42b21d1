import type { Database } from '../../db/schema.ts';

/** Where an event about a site belongs: its organization, team and the site itself. */
export function siteScope(site: Pick<Database['sites'], 'id' | 'org_id' | 'team_id'>) {
  return { orgId: site.org_id, teamId: site.team_id, siteId: site.id };
}
