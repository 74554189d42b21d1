import type { Executor } from '../db/schema.ts';

/**
 * The release of a site with this slug (its permanent address, `{slug}--{site}`): what the edge
 * serves there, what TLS orders a certificate for, and what a new release's slug must not be.
 */
export function releaseWithSlug(db: Executor, siteId: string, slug: string) {
  return db
    .selectFrom('releases')
    .select(['id', 'password_hash', 'password_version'])
    .where('site_id', '=', siteId)
    .where('slug', '=', slug)
    .executeTakeFirst();
}
