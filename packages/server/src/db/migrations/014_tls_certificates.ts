import type { Kysely } from 'kysely';

/**
 * What Wharf needs to obtain certificates over ACME, in the database so that every worker (and,
 * later, every node) serves the same ones: the account per directory, the certificates per name
 * (a host, or a wildcard `*.{parent}`), and the HTTP-01 answers any process may be asked for.
 * Keys are sealed with the installation's secret.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('acme_accounts')
    .addColumn('directory_url', 'text', (c) => c.primaryKey())
    .addColumn('key_sealed', 'text', (c) => c.notNull())
    .addColumn('account_url', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('tls_certificates')
    .addColumn('name', 'text', (c) => c.primaryKey())
    // The site whose host it is (rate limits, clean-up); null for the console host and wildcards of the sites host.
    .addColumn('site_id', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('chain', 'text')
    .addColumn('key_sealed', 'text')
    .addColumn('not_after', 'text')
    .addColumn('last_error', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('retry_at', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('tls_certificates_site')
    .on('tls_certificates')
    .columns(['site_id', 'created_at'])
    .execute();
  await db.schema.createIndex('tls_certificates_renewal').on('tls_certificates').columns(['not_after']).execute();
  await db.schema
    .createTable('acme_challenges')
    .addColumn('token', 'text', (c) => c.primaryKey())
    .addColumn('key_authorization', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
}
