import type { Executor } from '../../db/schema.ts';
import { slugOf } from '../../lib/urls.ts';

/** A slug for a branch name that no other branch of the site uses: `feature-login`, then `feature-login-2`… */
export async function freeSlug(db: Executor, siteId: string, name: string, exceptBranchId?: string) {
  const base = slugOf(name);
  let query = db.selectFrom('branches').select('slug').where('site_id', '=', siteId).where('slug', 'like', `${base}%`);
  if (exceptBranchId) query = query.where('id', '!=', exceptBranchId);
  const taken = new Set((await query.execute()).map((row) => row.slug));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}
