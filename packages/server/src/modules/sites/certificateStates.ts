import type { CertificateStatus, SiteCertificate } from '@wharf/contract';
import type { Config } from '../../config/types.ts';
import type { Database, Executor } from '../../db/schema.ts';
import { certificateFacts } from './certificates.ts';

type StatusColumns = Pick<
  Database['tls_certificates'],
  'state' | 'not_after' | 'last_error' | 'retry_at' | 'lease_until' | 'chain'
>;

export const STATUS_COLUMNS = ['state', 'not_after', 'last_error', 'retry_at', 'lease_until', 'chain'] as const;

/** A certificate's row as answers show it. */
export function certificateStatusOf(row: StatusColumns, now = new Date().toISOString()): CertificateStatus {
  const served = row.chain ? certificateFacts(row.chain) : undefined;
  return {
    names: served?.names ?? [],
    issuer: served?.issuer ?? null,
    // An order under way shows as pending, even while the certificate it renews is served.
    state: row.lease_until && row.lease_until > now ? 'pending' : row.state,
    validUntil: row.not_after,
    lastError: row.last_error,
    nextAttemptAt: row.retry_at,
  };
}

/**
 * The certificates obtained over ACME that serve a site: its own (its host, its branches' hosts
 * or the wildcards over them, its custom domains), and the one over the sites host that serves
 * every site's host when wildcards are on, marked shared. Failed ones first, then by name.
 */
export async function siteCertificates(
  db: Executor,
  config: Pick<Config, 'sitesUrl'>,
  siteId: string,
): Promise<SiteCertificate[]> {
  const sharedName = `*.${config.sitesUrl.hostname}`;
  const rows = await db
    .selectFrom('tls_certificates')
    .select(['name', 'site_id', ...STATUS_COLUMNS])
    .where((w) => w.or([w('site_id', '=', siteId), w('name', '=', sharedName)]))
    .orderBy('name')
    .execute();
  const now = new Date().toISOString();
  const certificates = rows.map((row) => ({
    name: row.name,
    shared: row.site_id === null,
    ...certificateStatusOf(row, now),
  }));
  return [
    ...certificates.filter((certificate) => certificate.lastError),
    ...certificates.filter((certificate) => !certificate.lastError),
  ];
}
