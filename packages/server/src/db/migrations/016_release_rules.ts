import type { Kysely } from 'kysely';

/**
 * Sites that move here unchanged: a release keeps the rules of its `_redirects` and `_headers`
 * (parsed once, at upload) and the problems found in them; a site chooses whether `/about.html`
 * redirects to `/about` (pretty URLs, on as on the platforms sites come from).
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .alterTable('releases')
    .addColumn('rules', 'text', (c) => c.notNull().defaultTo('{"redirects":[],"headers":[]}'))
    .execute();
  await db.schema
    .alterTable('releases')
    .addColumn('rule_problems', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema
    .alterTable('sites')
    .addColumn('pretty_urls', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}
