import type { Kysely } from 'kysely';

/**
 * Retention: each site keeps the releases no branch serves for `keep_releases_days` days and
 * only its newest `keep_releases_count` (null: no limit of that kind, only when a person chose
 * it); a branch may expire (`expires_at`, a preview's end), as the upload that made it asked. The defaults keep every site's disk
 * bounded from the start, existing sites included.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .alterTable('sites')
    .addColumn('keep_releases_days', 'integer', (c) => c.defaultTo(30))
    .execute();
  await db.schema
    .alterTable('sites')
    .addColumn('keep_releases_count', 'integer', (c) => c.defaultTo(100))
    .execute();
  await db.schema.alterTable('branches').addColumn('expires_at', 'text').execute();
  // The expiry an incremental deploy gives its branches when it is finalised (`14d`).
  await db.schema.alterTable('deploys').addColumn('branch_expiry', 'text').execute();
  // The sweep asks for branches past their expiry, and whether a branch or a finished deploy
  // still names a release. (If not exists: a list index of the same name may come first.)
  const indexes = [
    ['branches_expires_at', 'branches', 'expires_at'],
    ['branches_release_id', 'branches', 'release_id'],
    ['branch_releases_release_id', 'branch_releases', 'release_id'],
    ['deploys_release_id', 'deploys', 'release_id'],
  ] as const;
  for (const [name, table, column] of indexes) {
    await db.schema.createIndex(name).ifNotExists().on(table).column(column).execute();
  }
}
