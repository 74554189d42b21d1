import type { Kysely } from 'kysely';

/** Anonymous usage analytics: views of console pages per day, by the page's shape only. */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('page_views')
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('views', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('page_views_pk', ['day', 'path'])
    .execute();
}
