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

export interface CertificateStoreOptions {
  /** The operator's PEM chain (leaf first) and key, for the console host and the sites host. */
  certFile: string;
  keyFile: string;
  /** Session ticket keys (48 bytes) every context shares, so a ticket works whichever certificate served it. */
  ticketKeys: Buffer;
  log: Pick<Logger, 'info' | 'error'>;
}

/**
 * The certificates Wharf serves, chosen by the name a client asks for (SNI). For now the
 * operator's pair (`WHARF_TLS_CERT`/`WHARF_TLS_KEY`), reloaded when its files change; later also
 * the manual certificates of custom domains and those ACME obtains. A name no certificate covers
 * gets none: the handshake fails rather than showing a certificate for another name.
 */
export class CertificateStore {
  private operator: Loaded;
  private watching = false;

  constructor(private readonly options: CertificateStoreOptions) {
    // A bad pair at start stops Wharf with the reason; a bad pair later is logged and the old one kept.
    this.operator = this.loadOperator();
  }

  /** The context for a server name, or null when no certificate covers it. */
  contextFor(serverName: string): tls.SecureContext | null {
    const name = serverName.toLowerCase().replace(/\.$/, '');
    if (!name) return null;
    // checkHost matches exact names and one-level wildcards (`*.example.com`) of the subjectAltNames.
    if (this.operator.certificate.checkHost(name) !== undefined) return this.operator.context;
    return null;
  }

  /** For `tls.createServer`: answers the context of the name the client asked for, or refuses. */
  readonly sniCallback = (serverName: string, done: (error: Error | null, context?: tls.SecureContext) => void) => {
    const context = this.contextFor(serverName);
    if (context) done(null, context);
    else done(new Error(`no certificate for ${serverName}`));
  };

  /** The operator's certificate now served (tests and logs read its serial number). */
  get operatorCertificate(): X509Certificate {
    return this.operator.certificate;
  }

  /** Checks the operator's files every few seconds; a replaced pair is served to new connections. */
  watch() {
    if (this.watching) return;
    this.watching = true;
    for (const file of [this.options.certFile, this.options.keyFile])
      watchFile(file, { interval: WATCH_INTERVAL_MS, persistent: false }, () => this.reload());
  }

  /** Loads the operator's files again; keeps the pair served when the new one is not valid. */
  reload() {
    try {
      const loaded = this.loadOperator();
      if (loaded.certificate.fingerprint256 === this.operator.certificate.fingerprint256) return;
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
    unwatchFile(this.options.certFile);
    unwatchFile(this.options.keyFile);
  }

  private loadOperator(): Loaded {
    const cert = readFileSync(this.options.certFile, 'utf8');
    const key = readFileSync(this.options.keyFile, 'utf8');
    const certificate = new X509Certificate(cert);
    if (!certificate.checkPrivateKey(createPrivateKey(key)))
      throw new Error(`${this.options.keyFile} is not the key of the certificate in ${this.options.certFile}`);
    // Also refuses what OpenSSL would refuse at the handshake (a key it cannot use, a broken chain).
    const context = tls.createSecureContext({ ...TLS_OPTIONS, cert, key, ticketKeys: this.options.ticketKeys });
    return { certificate, context };
  }
}
