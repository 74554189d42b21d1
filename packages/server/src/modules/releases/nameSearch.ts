import { sql } from 'kysely';
import { isPostgres } from '../../db/dialect.ts';
import type { Executor } from '../../db/schema.ts';
import { containing } from '../../lib/paging.ts';

/** The shortest text a trigram index finds: shorter ones are looked for row by row. */
const TRIGRAM = 3;

/** An FTS5 phrase of the text as it is: quotes doubled, every other character literal. */
const phrase = (text: string) => `"${text.replaceAll('"', '""')}"`;

/**
 * A condition on `releases` keeping those of the site whose name contains `text`, in any case
 * (Unicode case folding on both databases; `%`, `_` and quotes are plain characters). SQLite
 * answers from its FTS5 trigram table, PostgreSQL from its trigram index (migration 018).
 */
export function releasesOfSiteNamed(db: Executor, siteId: string, text: string) {
  if (!isPostgres(db) && [...text].length >= TRIGRAM) {
    // `+` keeps SQLite from walking the site's releases to test each against the matches: the
    // few matches are looked up by id instead.
    return sql<boolean>`+releases.site_id = ${siteId} and releases.id in
      (select release_id from release_search where release_search match ${`name : ${phrase(text)}`})`;
  }
  return sql<boolean>`releases.site_id = ${siteId} and lower(releases.name) like ${containing(text)} escape '\\'`;
}
