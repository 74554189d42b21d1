import type { Kysely } from 'kysely';

/**
 * A deploy whose files equal those of the release its branches serve makes no new release (a CI
 * job run again) unless it was started with `force`, remembered here until it is finalised.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .alterTable('deploys')
    .addColumn('force', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
