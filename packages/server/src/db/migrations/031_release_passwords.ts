import type { Kysely } from 'kysely';

/**
 * A release's own address may ask for a password of its own (a preview shown to a client while the
 * site is public); without one it asks for the site's, as before.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema.alterTable('releases').addColumn('password_hash', 'text').execute();
  await db.schema.alterTable('releases').addColumn('password_version', 'text').execute();
}
