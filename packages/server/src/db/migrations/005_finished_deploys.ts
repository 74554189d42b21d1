import type { Kysely } from 'kysely';

/**
 * A finalised deploy keeps its row (until it expires) with the release it became, so a client
 * that retries the finalise call after a lost answer gets that release instead of a 404.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema.alterTable('deploys').addColumn('release_id', 'text').execute();
}
