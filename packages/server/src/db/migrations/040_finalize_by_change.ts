import { type Kysely, sql } from 'kysely';

/**
 * What lets a redeploy's finalise do work in proportion to what changed, not to the site's size:
 *
 * - `deploy_files.held`: 1 when the organization held the file's blob as the manifest was recorded
 *   (under the blob lock, so the deploy's rows have kept it from collection since). Only the others
 *   are checked for at finalise, through a partial index. Rows of deploys open during the upgrade
 *   are 0, checked as before.
 * - The organization's blobs by when they were first stored: a release's new files are the few
 *   stored since its deploy began.
 * - The blobs whose compressed variants are still to make: few at any time, however many a
 *   deploy names.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .alterTable('deploy_files')
    .addColumn('held', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('deploy_files_unheld')
    .on('deploy_files')
    .columns(['deploy_id', 'hash'])
    .where(sql.ref('held'), '=', 0)
    .execute();
  await db.schema.createIndex('org_blobs_org_created').on('org_blobs').columns(['org_id', 'created_at']).execute();
  await db.schema
    .createIndex('blobs_variants_pending')
    .on('blobs')
    .column('hash')
    .where(sql.ref('variants_pending'), '=', 1)
    .execute();
}
