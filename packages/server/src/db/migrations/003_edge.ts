import type { Kysely } from 'kysely';

/** What the edge writes: traffic per site per hour, form submissions, and mail waiting to go. */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('site_traffic')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('hour', 'text', (c) => c.notNull())
    .addColumn('requests', 'bigint', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('status_2xx', 'bigint', (c) => c.notNull())
    .addColumn('status_3xx', 'bigint', (c) => c.notNull())
    .addColumn('status_4xx', 'bigint', (c) => c.notNull())
    .addColumn('status_5xx', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('site_traffic_pk', ['site_id', 'hour'])
    .execute();
  await db.schema
    .createTable('form_submissions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('branch_id', 'text', (c) => c.notNull())
    .addColumn('release_id', 'text', (c) => c.notNull())
    .addColumn('form', 'text', (c) => c.notNull())
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('client_address', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('form_submissions_site')
    .on('form_submissions')
    .columns(['site_id', 'form', 'created_at'])
    .execute();
  await db.schema
    .createTable('mail_queue')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .execute();
}
