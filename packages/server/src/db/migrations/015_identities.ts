import { type Kysely, sql } from 'kysely';

/**
 * Sign-in through providers (GitHub, GitLab, Gitea, OpenID Connect). A user may sign in with
 * several accounts (identities), each known by its provider and the provider's own id of the
 * person, never by email. Every existing user keeps the account it signed in with. A sign-in in
 * progress is a flow row, spent by its callback; a session remembers the account that opened it,
 * and a membership remembers the invitation and the account that accepted it.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('identities')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('login', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('avatar_url', 'text')
    // The provider's organizations, groups or claim values at the last sign-in (JSON array).
    .addColumn('groups', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_sign_in_at', 'text')
    .addUniqueConstraint('identities_provider_subject', ['provider', 'subject'])
    .execute();
  await db.schema.createIndex('identities_user').on('identities').column('user_id').execute();
  await sql`
    insert into identities (id, user_id, provider, subject, login, name, email, created_at)
    select id, id, provider, provider_id, name, name, email, created_at from users`.execute(db);

  await db.schema.alterTable('users').addColumn('avatar_url', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('identity_id', 'text').execute();
  for (const column of ['invite_email', 'joined_provider', 'joined_login', 'joined_email'])
    await db.schema.alterTable('members').addColumn(column, 'text').execute();

  await db.schema
    .createTable('sign_in_flows')
    .addColumn('state_hash', 'text', (c) => c.primaryKey())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('code_verifier_sealed', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    // Set when a signed-in user connects another account rather than signing in.
    .addColumn('link_user_id', 'text')
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
}
