import type { Kysely } from 'kysely';

/** Release storage: content-addressed blobs, release manifests, and deploys in progress. */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('blobs')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('br_size', 'bigint')
    .addColumn('gz_size', 'bigint')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('release_files')
    .addColumn('release_id', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('release_files_pk', ['release_id', 'path'])
    .execute();
  await db.schema.createIndex('release_files_hash').on('release_files').column('hash').execute();
  await db.schema
    .createTable('deploys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('branches', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('deploy_files')
    .addColumn('deploy_id', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('deploy_files_pk', ['deploy_id', 'path'])
    .execute();
  await db.schema.createIndex('deploy_files_hash').on('deploy_files').column('hash').execute();
}
