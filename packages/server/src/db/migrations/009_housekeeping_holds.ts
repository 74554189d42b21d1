import type { Kysely } from 'kysely';

/**
 * Holds that keep the garbage collection from deleting files while something (a backup) reads
 * them; each expires on its own, so a holder that dies releases it.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('housekeeping_holds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
}
