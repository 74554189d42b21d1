import type { Kysely } from 'kysely';

/**
 * A deploy that failed (refused, cut off, out of disk, abandoned until it expired) is kept with
 * its reason and its log, listed beside the site's releases until retention prunes it. Its files
 * are not kept: only what it was and why it ended.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('failed_deploys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('branches', 'text', (c) => c.notNull())
    .addColumn('uploader', 'text')
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('log', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('failed_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('failed_deploys_site').on('failed_deploys').columns(['site_id', 'failed_at']).execute();
}
