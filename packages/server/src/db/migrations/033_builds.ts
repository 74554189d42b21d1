import type { Kysely } from 'kysely';

/**
 * Builds of a site from its repository (the queue itself: a builder claims a queued row with a
 * lease), the lines of their logs, and build hooks: secret addresses that queue a build.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('builds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('git_branch', 'text', (c) => c.notNull())
    .addColumn('branch', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('triggered_by', 'text')
    .addColumn('actor_id', 'text')
    .addColumn('retry_of', 'text')
    .addColumn('image', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('phases', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('release_id', 'text')
    .addColumn('cancel_requested', 'integer', (c) => c.notNull())
    .addColumn('node', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('log_lines', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('builds_by_state').on('builds').columns(['state', 'created_at']).execute();
  await db.schema.createIndex('builds_of_site').on('builds').columns(['site_id', 'created_at']).execute();
  await db.schema
    .createTable('build_log')
    .addColumn('build_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('build_log_pk', ['build_id', 'seq'])
    .execute();
  await db.schema
    .createTable('build_hooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('git_branch', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .execute();
  // Builders keep a site's cache on their own disk: they compare it with this time, set by 'clear cache'.
  await db.schema.alterTable('site_repositories').addColumn('cache_cleared_at', 'text').execute();
}
