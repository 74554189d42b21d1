import { X509Certificate } from 'node:crypto';
import type tls from 'node:tls';
import type { Domain } from '@wharf/contract';
import type { Sealer } from '../lib/secrets.ts';
import { type CertificateSource, type ServedCertificate, secureContextOf } from './certificateStore.ts';
import type { HostDirectory } from './hostDirectory.ts';

interface Prepared {
  certificate: X509Certificate;
  context: tls.SecureContext;
}

/**
 * The manual certificates saved on custom domains (spec.md `manual`), served for the domain and,
 * when it exposes branches, for `{branch}.{domain}` if the certificate covers that name. They come
 * from the host directory (the edge's routing table), so a saved certificate reaches every worker
 * with the site's reload. A context is made once per saved configuration: the table keeps the same object until
 * the site reloads, and a reload's new objects (and the old ones' contexts) go with the old entry.
 * The private key is stored sealed, and opened only here, when the context is made.
 */
export class ManualCertificates implements CertificateSource {
  private readonly prepared = new WeakMap<object, Prepared | null>();

  constructor(
    private readonly hosts: HostDirectory,
    private readonly ticketKeys: Buffer,
    private readonly sealer: Sealer,
  ) {}

  contextFor(serverName: string): tls.SecureContext | null {
    const prepared = this.preparedFor(this.hosts.domainOf(serverName));
    if (!prepared || prepared.certificate.checkHost(serverName) === undefined) return null;
    return prepared.context;
  }

  /** The certificate of each custom domain with a manual one, served for the domain's name. */
  served(): ServedCertificate[] {
    const served: ServedCertificate[] = [];
    for (const domain of this.hosts.domains()) {
      const prepared = this.preparedFor(domain);
      if (prepared) served.push({ name: domain.name, source: 'manual', notAfter: prepared.certificate.validToDate });
    }
    return served;
  }

  private preparedFor(domain: Domain | null): Prepared | null {
    const ssl = domain?.sslConfiguration;
    if (ssl?.type !== 'manual' || !ssl.privateKey) return null;
    let prepared = this.prepared.get(ssl);
    if (prepared === undefined) {
      prepared = this.prepare(ssl.fullchain, ssl.privateKey);
      this.prepared.set(ssl, prepared);
    }
    return prepared;
  }

  private prepare(chain: string, sealedKey: string): Prepared | null {
    try {
      const key = this.sealer.open(sealedKey);
      return { certificate: new X509Certificate(chain), context: secureContextOf(chain, key, this.ticketKeys) };
    } catch {
      // Saved pairs were checked when saved; one OpenSSL still refuses (or another secret sealed) is not served.
      return null;
    }
  }
}
