import type { Kysely } from 'kysely';

/** Tables of the platform core. Only portable types: text, integer, bigint. */
export async function up(db: Kysely<unknown>) {
  const table = (name: string) => db.schema.createTable(name);
  const text = 'text' as const;
  await table('users')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('name', text, (c) => c.notNull())
    .addColumn('email', text)
    .addColumn('provider', text, (c) => c.notNull())
    .addColumn('provider_id', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addUniqueConstraint('users_provider_identity', ['provider', 'provider_id'])
    .execute();
  await table('password_logins')
    .addColumn('name', text, (c) => c.primaryKey())
    .addColumn('password_hash', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .execute();
  await table('sessions')
    .addColumn('id_hash', text, (c) => c.primaryKey())
    .addColumn('user_id', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('expires_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

  for (const owner of ['orgs', 'teams'] as const) {
    let builder = table(owner).addColumn('id', text, (c) => c.primaryKey());
    if (owner === 'teams') builder = builder.addColumn('org_id', text, (c) => c.notNull());
    await builder
      .addColumn('name', text, (c) => c.notNull())
      .addColumn('color', text, (c) => c.notNull())
      .addColumn('logo_type', text)
      .addColumn('logo_version', text)
      .addColumn('created_at', text, (c) => c.notNull())
      .execute();
  }
  await db.schema.createIndex('teams_org').on('teams').columns(['org_id', 'created_at']).execute();

  await table('members')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('org_id', text, (c) => c.notNull())
    .addColumn('user_id', text, (c) => c.notNull())
    .addColumn('admin', 'integer', (c) => c.notNull())
    .addColumn('owner', 'integer', (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addUniqueConstraint('members_org_user', ['org_id', 'user_id'])
    .execute();
  await db.schema.createIndex('members_user').on('members').column('user_id').execute();

  await table('invites')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('org_id', text, (c) => c.notNull())
    .addColumn('email', text, (c) => c.notNull())
    .addColumn('admin', 'integer', (c) => c.notNull())
    .addColumn('token_hash', text, (c) => c.notNull().unique())
    .addColumn('expires_at', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('invites_org').on('invites').column('org_id').execute();

  await table('team_members')
    .addColumn('team_id', text, (c) => c.notNull())
    .addColumn('member_id', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('team_members_pk', ['team_id', 'member_id'])
    .execute();
  await db.schema.createIndex('team_members_member').on('team_members').column('member_id').execute();

  await table('sites')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('org_id', text, (c) => c.notNull())
    .addColumn('team_id', text, (c) => c.notNull())
    .addColumn('name', text, (c) => c.notNull().unique())
    .addColumn('color', text, (c) => c.notNull())
    .addColumn('logo_type', text)
    .addColumn('logo_version', text)
    .addColumn('main_branch_id', text, (c) => c.notNull())
    .addColumn('spa', 'integer', (c) => c.notNull())
    .addColumn('password_hash', text)
    .addColumn('password_version', text)
    .addColumn('domains', text, (c) => c.notNull())
    .addColumn('headers', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sites_team').on('sites').columns(['team_id', 'created_at']).execute();
  await db.schema.createIndex('sites_org').on('sites').columns(['org_id', 'name']).execute();
  await table('site_domains')
    .addColumn('name', text, (c) => c.primaryKey())
    .addColumn('site_id', text, (c) => c.notNull())
    .execute();

  await table('branches')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('site_id', text, (c) => c.notNull())
    .addColumn('name', text, (c) => c.notNull())
    .addColumn('slug', text, (c) => c.notNull())
    .addColumn('release_id', text)
    .addColumn('password_hash', text)
    .addColumn('password_version', text)
    .addColumn('headers', text, (c) => c.notNull())
    .addColumn('redirects', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addUniqueConstraint('branches_site_name', ['site_id', 'name'])
    .addUniqueConstraint('branches_site_slug', ['site_id', 'slug'])
    .execute();

  await table('releases')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('site_id', text, (c) => c.notNull())
    .addColumn('name', text, (c) => c.notNull())
    .addColumn('forms', text, (c) => c.notNull())
    .addColumn('file_count', 'integer', (c) => c.notNull())
    .addColumn('total_size', 'bigint', (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('releases_site').on('releases').columns(['site_id', 'created_at']).execute();
  await table('branch_releases')
    .addColumn('branch_id', text, (c) => c.notNull())
    .addColumn('release_id', text, (c) => c.notNull())
    .addColumn('set_at', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('branch_releases_pk', ['branch_id', 'release_id'])
    .execute();

  for (const tokens of ['site_tokens', 'api_tokens'] as const) {
    let builder = table(tokens)
      .addColumn('id', text, (c) => c.primaryKey())
      .addColumn(tokens === 'site_tokens' ? 'site_id' : 'user_id', text, (c) => c.notNull())
      .addColumn('name', text, (c) => c.notNull())
      .addColumn('value_sealed', text, (c) => c.notNull())
      .addColumn('value_hash', text, (c) => c.notNull().unique())
      .addColumn('created_at', text, (c) => c.notNull());
    if (tokens === 'api_tokens') {
      builder = builder
        .addColumn('scopes', text, (c) => c.notNull())
        .addColumn('activates_at', text, (c) => c.notNull())
        .addColumn('expires_at', text);
    }
    await builder.execute();
  }

  await table('hooks')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('context', text, (c) => c.notNull())
    .addColumn('owner_id', text, (c) => c.notNull())
    .addColumn('org_id', text, (c) => c.notNull())
    .addColumn('type', text, (c) => c.notNull())
    .addColumn('name', text, (c) => c.notNull())
    .addColumn('events', text, (c) => c.notNull())
    .addColumn('config', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('hooks_owner').on('hooks').columns(['context', 'owner_id']).execute();
  await table('hook_deliveries')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('hook_id', text, (c) => c.notNull())
    .addColumn('event_id', text, (c) => c.notNull())
    .addColumn('success', 'integer', (c) => c.notNull())
    .addColumn('type', text, (c) => c.notNull())
    .addColumn('data', text, (c) => c.notNull())
    .addColumn('date', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('hook_deliveries_hook').on('hook_deliveries').columns(['hook_id', 'date']).execute();

  await table('events')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('name', text, (c) => c.notNull())
    .addColumn('org_id', text)
    .addColumn('team_id', text)
    .addColumn('site_id', text)
    .addColumn('user_id', text)
    .addColumn('actor_id', text)
    .addColumn('data', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('dispatched_at', text)
    .execute();
  await db.schema.createIndex('events_pending').on('events').columns(['dispatched_at', 'id']).execute();
}
