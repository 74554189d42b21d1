import type { Kysely } from 'kysely';

/**
 * Repository access through the accounts people sign in with: a code-host account may carry an
 * access token (sealed; with its refresh token and expiry where the host rotates them) that lists
 * its repositories and sets up a site's webhook and deploy key there, granted in a flow of its own
 * that comes back to the console page it started from.
 */
export async function up(db: Kysely<unknown>) {
  for (const column of [
    'repository_token_sealed',
    'repository_refresh_sealed',
    'repository_token_expires_at',
    'repository_access_at',
  ])
    await db.schema.alterTable('identities').addColumn(column, 'text').execute();
  await db.schema.alterTable('sign_in_flows').addColumn('return_to', 'text').execute();
}
