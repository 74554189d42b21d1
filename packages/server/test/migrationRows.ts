/**
 * A site row as the migration tests insert it into an older schema (from 017's retention limits
 * to 038): without the columns later migrations add, so inserted `as never` against today's types.
 */
export const olderSiteRow = (id: string, mainBranchId = `${id}-main`) => ({
  id,
  org_id: 'o1',
  team_id: 't1',
  name: id,
  color: '#000000',
  logo_type: null,
  logo_version: null,
  main_branch_id: mainBranchId,
  spa: 0,
  pretty_urls: 1,
  password_hash: null,
  password_version: null,
  domains: '[]',
  headers: '[]',
  keep_releases_days: null,
  keep_releases_count: null,
  created_at: '2024-05-01T10:00:00.000Z',
});
