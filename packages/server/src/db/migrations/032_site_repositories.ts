import type { Kysely } from 'kysely';

/**
 * The repository a site builds from, one per site: where it is, how it builds, and the SSH deploy
 * key Wharf clones with (its private half sealed like every other secret at rest).
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('site_repositories')
    .addColumn('site_id', 'text', (c) => c.primaryKey())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('production_branch', 'text', (c) => c.notNull())
    .addColumn('base_directory', 'text', (c) => c.notNull())
    .addColumn('build_command', 'text', (c) => c.notNull())
    .addColumn('publish_directory', 'text', (c) => c.notNull())
    .addColumn('image', 'text', (c) => c.notNull())
    .addColumn('branch_deploys', 'text', (c) => c.notNull())
    .addColumn('branches', 'text', (c) => c.notNull())
    .addColumn('previews', 'integer', (c) => c.notNull())
    .addColumn('deploy_key_public', 'text', (c) => c.notNull())
    .addColumn('deploy_key_sealed', 'text', (c) => c.notNull())
    .addColumn('deploy_key_created_at', 'text', (c) => c.notNull())
    .addColumn('connected_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}
