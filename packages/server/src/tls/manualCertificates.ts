import { createHash, X509Certificate } from 'node:crypto';
import type tls from 'node:tls';
import type { RoutingTable } from '../edge/routingTable.ts';
import { type CertificateSource, secureContextOf } from './certificateStore.ts';

interface Prepared {
  certificate: X509Certificate;
  context: tls.SecureContext;
}

/**
 * The manual certificates saved on custom domains (spec.md `manual`), served for the domain and,
 * when it exposes branches, for `{branch}.{domain}` if the certificate covers that name. They come
 * from the routing table, so a saved certificate reaches every worker with the site's reload.
 * Contexts are made once per chain and key.
 */
export class ManualCertificates implements CertificateSource {
  private readonly prepared = new Map<string, Prepared>();

  constructor(
    private readonly table: RoutingTable,
    private readonly ticketKeys: Buffer,
  ) {}

  contextFor(serverName: string): tls.SecureContext | null {
    const ssl = this.table.domainOf(serverName)?.sslConfiguration;
    if (ssl?.type !== 'manual' || !ssl.privateKey) return null;
    const prepared = this.prepare(ssl.fullchain, ssl.privateKey);
    if (!prepared || prepared.certificate.checkHost(serverName) === undefined) return null;
    return prepared.context;
  }

  private prepare(chain: string, key: string): Prepared | null {
    const id = createHash('sha256').update(chain).update('\0').update(key).digest('base64url');
    const known = this.prepared.get(id);
    if (known) return known;
    try {
      const prepared = {
        certificate: new X509Certificate(chain),
        context: secureContextOf(chain, key, this.ticketKeys),
      };
      // Certificates replaced on a domain leave their contexts behind: start over past a bound.
      if (this.prepared.size >= 1_000) this.prepared.clear();
      this.prepared.set(id, prepared);
      return prepared;
    } catch {
      // Saved pairs were checked when saved; one OpenSSL still refuses is not served.
      return null;
    }
  }
}
