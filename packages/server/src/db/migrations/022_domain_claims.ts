import { type Kysely, sql } from 'kysely';

interface StoredDomain {
  name: string;
  ownership?: { verifiedAt: string | null };
}

/**
 * Custom domains are claimed, not taken: several sites may claim one name until one of them
 * proves it holds it, and a verified name belongs to that site alone (the partial unique index).
 * `domain_claims` replaces `site_domains` (one site per name, verified or not, which let a claim
 * never verified block the real owner), with the organization and the times that the rules of
 * claims read. `released_domains` remembers the verified domains taken off a site for a while:
 * their DNS may still point at Wharf, so the HTTP challenge proves nothing about them then.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('domain_claims')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('verified_at', 'text')
    // `txt` or `http`: a claim proved over HTTP yields to the organization that verifies a domain above it.
    .addColumn('verified_by', 'text')
    .addColumn('claimed_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('domain_claims_pk', ['name', 'site_id'])
    .execute();
  await db.schema
    .createIndex('domain_claims_verified_name')
    .on('domain_claims')
    .column('name')
    .unique()
    .where(sql.ref('verified_at'), 'is not', null)
    .execute();
  await db.schema.createIndex('domain_claims_site').on('domain_claims').column('site_id').execute();
  await db.schema
    .createTable('released_domains')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('released_at', 'text', (c) => c.notNull())
    .execute();

  // Claims saved before count from now: each gets the whole time to be verified.
  const claimedAt = new Date().toISOString();
  const { rows } = await sql<{ id: string; org_id: string; domains: string }>`
    select id, org_id, domains from sites where domains <> '[]'`.execute(db);
  for (const row of rows) {
    for (const domain of JSON.parse(row.domains) as StoredDomain[]) {
      const verifiedAt = domain.ownership?.verifiedAt ?? null;
      // How a domain verified before was proved is not known: it is kept as if by its TXT record.
      const verifiedBy = verifiedAt ? 'txt' : null;
      await sql`insert into domain_claims (name, site_id, org_id, verified_at, verified_by, claimed_at)
        values (${domain.name}, ${row.id}, ${row.org_id}, ${verifiedAt}, ${verifiedBy}, ${claimedAt})`.execute(db);
    }
  }
  await db.schema.dropTable('site_domains').execute();
}
