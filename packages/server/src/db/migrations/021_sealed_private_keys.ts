import { type Kysely, type Migration, sql } from 'kysely';
import type { Sealer } from '../../lib/secrets.ts';

interface StoredDomain {
  sslConfiguration?: { type: string; privateKey?: string };
}

/** A PEM key as saved before keys were sealed; a sealed value is three base64url parts. */
const isClearKey = (key: string | undefined): key is string => key?.startsWith('-----BEGIN') === true;

/**
 * Manual certificates' private keys were stored in clear in `sites.domains`; they are sealed like
 * token values from now on. The sealer is asked for only when there is a key to seal.
 */
export function sealedPrivateKeys(sealer: () => Sealer): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const { rows } = await sql<{ id: string; domains: string }>`
        select id, domains from sites where domains like '%PRIVATE KEY%'`.execute(db);
      for (const row of rows) {
        const domains = (JSON.parse(row.domains) as StoredDomain[]).map((domain) => {
          const ssl = domain.sslConfiguration;
          if (ssl?.type !== 'manual' || !isClearKey(ssl.privateKey)) return domain;
          return { ...domain, sslConfiguration: { ...ssl, privateKey: sealer().seal(ssl.privateKey) } };
        });
        await sql`update sites set domains = ${JSON.stringify(domains)} where id = ${row.id}`.execute(db);
      }
    },
  };
}
