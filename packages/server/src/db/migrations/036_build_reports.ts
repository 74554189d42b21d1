import { type Kysely, sql } from 'kysely';

/**
 * What builds tell the forge, which pushes they skip and which SSH host they trust: a repository's
 * watch paths, the SSH host key its first clone learnt (later clones insist on it), and the
 * sealed access token builds report with (with the last report's failure, shown in its settings),
 * each build's report target (where its forge's API keeps the commit and the pull request, read
 * from the delivery that queued it), and the one comment Wharf keeps up to date on each pull request.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .alterTable('site_repositories')
    .addColumn('watch_paths', 'text', (c) => c.notNull().defaultTo(sql`'[]'`))
    .execute();
  for (const column of ['forge_token_sealed', 'report_error', 'report_error_at', 'ssh_known_hosts', 'ssh_known_at'])
    await db.schema.alterTable('site_repositories').addColumn(column, 'text').execute();
  await db.schema.alterTable('builds').addColumn('report', 'text').execute();
  await db.schema
    .createTable('pull_request_comments')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('comment_id', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('pull_request_comments_pk', ['site_id', 'number'])
    .execute();
}
