import { type Kysely, sql } from 'kysely';

/**
 * A blob the collection found unused is first marked `dead`, then its files are deleted, then its
 * row: a crash part-way leaves a row that says its files may be gone, never one that says they are
 * there. Deploys count a dead blob as missing and store it again. The index keeps the
 * collection's look for dead rows (few, and soon gone) off the whole table.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .alterTable('blobs')
    .addColumn('dead', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('blobs_dead').on('blobs').column('hash').where(sql.ref('dead'), '=', 1).execute();
}
