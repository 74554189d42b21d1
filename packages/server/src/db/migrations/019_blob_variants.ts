import type { Kysely } from 'kysely';

/**
 * A blob may go live before its brotli and gzip variants exist: they are made afterwards, off the
 * thread that answers requests. `variants_pending` is 1 until that is done (the edge serves the
 * file unencoded, or compresses a small one itself, meanwhile). Blobs stored before this were
 * compressed before their row was written, so they are done.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .alterTable('blobs')
    .addColumn('variants_pending', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
