import type { Kysely } from 'kysely';

/**
 * The variables of a site's builds: one value per name and context (every build, production,
 * previews, or one git branch), sealed at rest whether secret or not; a secret's is never answered.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('build_variables')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('context', 'text', (c) => c.notNull())
    // '' rather than null for the contexts without one: the unique index then holds on every database.
    .addColumn('git_branch', 'text', (c) => c.notNull())
    .addColumn('value_sealed', 'text', (c) => c.notNull())
    .addColumn('secret', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('build_variables_unique')
    .on('build_variables')
    .columns(['site_id', 'key', 'context', 'git_branch'])
    .unique()
    .execute();
}
