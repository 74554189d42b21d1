import type { Kysely } from 'kysely';

/**
 * Traffic per branch: the hourly counts of `site_traffic` for each branch (or `releases`, every
 * release's own address), and per day the most asked paths, the paths not found and the hosts
 * visitors came from. Nothing about a visitor: the counts of a path, not who asked for it.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('branch_traffic')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('branch', 'text', (c) => c.notNull())
    .addColumn('hour', 'text', (c) => c.notNull())
    .addColumn('requests', 'bigint', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('status_2xx', 'bigint', (c) => c.notNull())
    .addColumn('status_3xx', 'bigint', (c) => c.notNull())
    .addColumn('status_4xx', 'bigint', (c) => c.notNull())
    .addColumn('status_5xx', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('branch_traffic_pk', ['site_id', 'branch', 'hour'])
    .execute();
  await db.schema
    .createTable('traffic_top')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('branch', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('requests', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('traffic_top_pk', ['site_id', 'branch', 'day', 'kind', 'key'])
    .execute();
  await db.schema.createIndex('traffic_top_site_day').on('traffic_top').columns(['site_id', 'day']).execute();
  await db.schema.createIndex('branch_traffic_site_hour').on('branch_traffic').columns(['site_id', 'hour']).execute();
}
