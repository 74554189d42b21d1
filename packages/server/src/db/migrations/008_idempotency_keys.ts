import type { Kysely } from 'kysely';

/**
 * The answers of requests sent with an `Idempotency-Key`, kept for a while so that a client
 * whose connection died gets the same answer when it tries again instead of a second release.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('caller', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text')
    .addColumn('answer', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['caller', 'key'])
    .execute();
}
