import { type Kysely, sql } from 'kysely';

/**
 * Submissions become readable: the honeypot's catch is kept apart as spam rather than dropped, and
 * each keeps the name its branch had (the branch may be deleted since). The lists read a site's or
 * a branch's inbox or spam newest first, which the two indexes serve.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .alterTable('form_submissions')
    .addColumn('spam', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('form_submissions')
    .addColumn('branch_name', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await sql`update form_submissions set branch_name = coalesce(
    (select name from branches where branches.id = form_submissions.branch_id), '')`.execute(db);
  await db.schema
    .createIndex('form_submissions_site_spam')
    .on('form_submissions')
    .columns(['site_id', 'spam', 'created_at'])
    .execute();
  await db.schema
    .createIndex('form_submissions_branch_spam')
    .on('form_submissions')
    .columns(['branch_id', 'spam', 'created_at'])
    .execute();
}
