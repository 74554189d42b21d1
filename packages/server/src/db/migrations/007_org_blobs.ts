import { type Kysely, sql } from 'kysely';

/**
 * Which organization has uploaded which blob. Blobs are stored once for everyone, but a deploy
 * is told "already there" only for the blobs its own organization has sent: knowing a hash is
 * not having the file. Existing releases grant their organization the blobs they use.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('org_blobs')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('org_blobs_pk', ['org_id', 'hash'])
    .execute();
  await db.schema.createIndex('org_blobs_hash').on('org_blobs').column('hash').execute();
  await sql`
    insert into org_blobs (org_id, hash, created_at)
    select distinct sites.org_id, release_files.hash, ${new Date().toISOString()}
    from release_files
    join releases on releases.id = release_files.release_id
    join sites on sites.id = releases.site_id
  `.execute(db);
}
