import type { Kysely } from 'kysely';

/**
 * What every Wharf process of an installation must agree on, checked at each start:
 * `installation` holds a value derived from the secret the database's sealed values were made
 * with, so a node started with another secret is refused before it writes or misreads anything.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('installation')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}
