import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync, unwatchFile, watchFile } from 'node:fs';
import tls from 'node:tls';
import type { Logger } from 'pino';

/** How often the operator's certificate files are checked for a change. */
const WATCH_INTERVAL_MS = 2_000;

/** What every secure context shares: TLS 1.2 at least, Node's modern default ciphers. */
export const TLS_OPTIONS = { minVersion: 'TLSv1.2' } as const satisfies tls.SecureContextOptions;

interface Loaded {
  certificate: X509Certificate;
  context: tls.SecureContext;
}

/**
 * Where certificates other than the operator's come from (manual certificates of custom domains,
 * those obtained over ACME): a context for a name, null when the source has none for it. A promise
 * when the source must look (the database) or obtain one first; the handshake waits for it.
 */
export interface CertificateSource {
  contextFor(serverName: string): tls.SecureContext | null | Promise<tls.SecureContext | null>;
  /** The certificates it serves, for /metrics. */
  served(): ServedCertificate[] | Promise<ServedCertificate[]>;
}

/** A certificate served for a name, and when it expires. */
export interface ServedCertificate {
  name: string;
  source: 'operator' | 'manual' | 'acme';
  notAfter: Date;
}

/** The DNS names of a certificate's subjectAltName: what browsers match (they ignore the subject's CN). */
function dnsNamesOf(certificate: X509Certificate): string[] {
  return (certificate.subjectAltName ?? '')
    .split(', ')
    .filter((entry) => entry.startsWith('DNS:'))
    .map((entry) => entry.slice('DNS:'.length));
}

/** A secure context of a PEM chain and key, with what every context of Wharf shares. */
export function secureContextOf(cert: string, key: string, ticketKeys: Buffer): tls.SecureContext {
  return tls.createSecureContext({ ...TLS_OPTIONS, cert, key, ticketKeys });
}

export interface CertificateStoreOptions {
  /** The operator's PEM chain (leaf first) and key, for the console host and the sites host; null without. */
  certFile: string | null;
  keyFile: string | null;
  /** Session ticket keys (48 bytes) every context shares, so a ticket works whichever certificate served it. */
  ticketKeys: Buffer;
  log: Pick<Logger, 'info' | 'error'>;
}

/**
 * The certificates Wharf serves, chosen by the name a client asks for (SNI): first the operator's
 * pair (`WHARF_TLS_CERT`/`WHARF_TLS_KEY`, reloaded when its files change), then the sources added
 * (manual certificates of custom domains, then those obtained over ACME). A name no certificate
 * covers gets none: the handshake fails rather than showing a certificate for another name.
 */
export class CertificateStore {
  private operator: Loaded | null;
  private readonly sources: CertificateSource[] = [];
  private watching = false;

  constructor(private readonly options: CertificateStoreOptions) {
    // A bad pair at start stops Wharf with the reason; a bad pair later is logged and the old one kept.
    this.operator = options.certFile && options.keyFile ? this.loadOperator(options.certFile, options.keyFile) : null;
  }

  /** Asked, in the order added, for the names the operator's certificate does not cover. */
  addSource(source: CertificateSource) {
    this.sources.push(source);
  }

  /** The context for a server name, or null when no certificate covers it. */
  async contextFor(serverName: string): Promise<tls.SecureContext | null> {
    const name = normalName(serverName);
    if (!name) return null;
    // checkHost matches exact names and one-level wildcards (`*.example.com`) of the subjectAltNames.
    if (this.operator && this.operator.certificate.checkHost(name) !== undefined) return this.operator.context;
    for (const source of this.sources) {
      const context = await source.contextFor(name);
      if (context) return context;
    }
    return null;
  }

  /** For `tls.createServer`: answers the context of the name the client asked for, or refuses. */
  readonly sniCallback = (serverName: string, done: (error: Error | null, context?: tls.SecureContext) => void) => {
    this.contextFor(serverName).then(
      (context) => (context ? done(null, context) : done(new Error(`no certificate for ${serverName}`))),
      (error: Error) => {
        this.options.log.error({ err: error, serverName }, 'could not choose a certificate');
        done(error);
      },
    );
  };

  /** Every certificate served now, for each name it is served for (the operator's: each of its names). */
  async served(): Promise<ServedCertificate[]> {
    const operator = this.operator?.certificate;
    const own = operator
      ? dnsNamesOf(operator).map((name) => ({ name, source: 'operator' as const, notAfter: operator.validToDate }))
      : [];
    const sources = await Promise.all(this.sources.map((source) => source.served()));
    return [...own, ...sources.flat()];
  }

  /** The operator's certificate now served (tests and logs read its serial number); null without. */
  get operatorCertificate(): X509Certificate | null {
    return this.operator?.certificate ?? null;
  }

  /** Checks the operator's files every few seconds; a replaced pair is served to new connections. */
  watch() {
    const { certFile, keyFile } = this.options;
    if (this.watching || !certFile || !keyFile) return;
    this.watching = true;
    for (const file of [certFile, keyFile])
      watchFile(file, { interval: WATCH_INTERVAL_MS, persistent: false }, () => this.reload(certFile, keyFile));
  }

  /** Loads the operator's files again; keeps the pair served when the new one is not valid. */
  reload(certFile: string, keyFile: string) {
    try {
      const loaded = this.loadOperator(certFile, keyFile);
      if (loaded.certificate.fingerprint256 === this.operator?.certificate.fingerprint256) return;
      this.operator = loaded;
      this.options.log.info(
        { serial: loaded.certificate.serialNumber, validTo: loaded.certificate.validTo },
        'serving the new TLS certificate',
      );
    } catch (error) {
      this.options.log.error(
        { err: error },
        'the TLS certificate files changed but could not be used: the previous certificate is still served',
      );
    }
  }

  close() {
    if (!this.watching) return;
    this.watching = false;
    if (this.options.certFile) unwatchFile(this.options.certFile);
    if (this.options.keyFile) unwatchFile(this.options.keyFile);
  }

  private loadOperator(certFile: string, keyFile: string): Loaded {
    const cert = readFileSync(certFile, 'utf8');
    const key = readFileSync(keyFile, 'utf8');
    const certificate = new X509Certificate(cert);
    if (!certificate.checkPrivateKey(createPrivateKey(key)))
      throw new Error(`${keyFile} is not the key of the certificate in ${certFile}`);
    // Also refuses what OpenSSL would refuse at the handshake (a key it cannot use, a broken chain).
    return { certificate, context: secureContextOf(cert, key, this.options.ticketKeys) };
  }
}

/** A server name as certificates are matched: lower case, without a final dot; empty when none. */
function normalName(serverName: string): string {
  return serverName.toLowerCase().replace(/\.$/, '');
}
