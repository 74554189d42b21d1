import type { Kysely } from 'kysely';

/** Followers of the outbox read it by time. */
export async function up(db: Kysely<unknown>) {
  await db.schema.createIndex('events_created').on('events').column('created_at').execute();
}
