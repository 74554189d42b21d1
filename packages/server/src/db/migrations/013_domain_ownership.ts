import { type Kysely, sql } from 'kysely';
import { randomString } from './frozen.ts';

interface StoredDomain {
  name: string;
  ownership?: unknown;
}

/**
 * Custom domains are served only once their ownership is verified. Those saved before that rule
 * existed were already being served: they count as verified (with a token of their own, shown in
 * the console like any other), so that no installation stops serving a domain when it upgrades.
 */
export async function up(db: Kysely<unknown>) {
  const { rows } = await sql<{ id: string; domains: string }>`
    select id, domains from sites where domains <> '[]'`.execute(db);
  const verifiedAt = new Date().toISOString();
  for (const row of rows) {
    const domains = (JSON.parse(row.domains) as StoredDomain[]).map((domain) => ({
      ...domain,
      ownership: domain.ownership ?? { token: `wharf-${randomString(32)}`, verifiedAt },
    }));
    await sql`update sites set domains = ${JSON.stringify(domains)} where id = ${row.id}`.execute(db);
  }
}
