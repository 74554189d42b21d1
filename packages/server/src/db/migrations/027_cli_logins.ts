import type { Kysely } from 'kysely';

/**
 * Sign-ins of the `wharf` command waiting for a person to approve them in the console. Rows live
 * in the database, not in a process, so the CLI's polls may reach any node. The CLI proves it
 * started the request with a secret only its hash is kept of; once approved, the row names the
 * API token made for it, handed over at the CLI's next poll and never again.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('cli_logins')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('machine', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    // pending, then approved (and claimed once the CLI has its token) or cancelled.
    .addColumn('state', 'text', (c) => c.notNull())
    // Who approved or cancelled it, and the token approving made.
    .addColumn('user_id', 'text')
    .addColumn('api_token_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('cli_logins_expires_at').on('cli_logins').column('expires_at').execute();
}
