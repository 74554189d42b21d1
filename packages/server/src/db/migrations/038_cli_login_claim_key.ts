import type { Kysely } from 'kysely';

/**
 * The Idempotency-Key of the poll that took a `wharf login` token, hashed: a retry of that same
 * poll, whose answer was lost on the way, gets the token again; any other poll does not.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema.alterTable('cli_logins').addColumn('claim_key_hash', 'text').execute();
}
