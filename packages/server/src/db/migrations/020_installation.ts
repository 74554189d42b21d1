import type { Kysely } from 'kysely';

/**
 * What the nodes of an installation must agree on, checked at each start. `installation` holds a
 * value derived from the secret the database's sealed values were made with, so a node started
 * with another secret is refused before it writes or misreads anything. `nodes` lists the nodes
 * running, each seen every few seconds: a node that finds others refuses to start with settings
 * that cannot work together (files in a folder of its own, no Redis). An Idempotency-Key claimed
 * by a request now names the node process running it (`held_by`): a retry after that process died
 * takes the key over instead of waiting for the claim to expire.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('installation')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('nodes')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('roles', 'text', (c) => c.notNull())
    .addColumn('storage', 'text', (c) => c.notNull())
    .addColumn('shares_counters', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('seen_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('idempotency_keys').addColumn('held_by', 'text').execute();
}
