import { deleteBranch } from '../../branches/service.ts';
import type { ReleaseParts } from '../parts.ts';

const BATCH = 100;

/**
 * Deletes the branches whose expiry has passed, as a person deleting them would (the same event,
 * so the edge, the console and hooks hear of it). A site's main branch never expires.
 */
export async function deleteExpiredBranches(parts: ReleaseParts, at = new Date()) {
  const expiredBy = at.toISOString();
  let deleted = 0;
  for (;;) {
    const rows = await parts.db
      .selectFrom('branches')
      .innerJoin('sites', 'sites.id', 'branches.site_id')
      .selectAll('branches')
      .where('branches.expires_at', '<=', expiredBy)
      .whereRef('sites.main_branch_id', '!=', 'branches.id')
      .orderBy('branches.expires_at')
      .limit(BATCH)
      .execute();
    let progress = false;
    for (const branch of rows) {
      const site = await parts.db.selectFrom('sites').selectAll().where('id', '=', branch.site_id).executeTakeFirst();
      // Made main since it was found: it stays, and no longer expires.
      if (!site || site.main_branch_id === branch.id) continue;
      if (await deleteBranch(parts.db, null, site, branch, { expiredBy })) {
        deleted++;
        progress = true;
      }
    }
    if (rows.length < BATCH || !progress) return deleted;
  }
}
