import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A self-signed certificate and its RSA key for a host name, made with openssl. */
export function selfSignedCertificate(host: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wharf-cert-'));
  try {
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '2',
        '-subj',
        `/CN=${host}`,
        '-addext',
        `subjectAltName=DNS:${host}`,
      ],
      { stdio: 'ignore' },
    );
    return { fullchain: readFileSync(cert, 'utf8'), privateKey: readFileSync(key, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A date as OpenSSL's CA index writes it: YYMMDDHHMMSSZ. */
function indexDate(date: Date) {
  return `${date.toISOString().slice(2, 19).replace(/[-T:]/g, '')}Z`;
}

/**
 * A test certificate authority (EC P-256, made with openssl) that issues leaf certificates for host
 * names, keeps OpenSSL's CA index of them (valid or revoked), and runs `openssl ocsp` as the OCSP
 * responder its leaves may name.
 */
export function testAuthority() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wharf-ca-'));
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  const openssl = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  openssl(['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=Wharf Test CA']);
  let serial = 0x1000;
  /** The CA index `openssl ocsp` answers from, one line a certificate. */
  const index = new Map<string, { validTo: Date; subject: string; revokedAt: Date | null }>();
  const writeIndex = () => {
    const lines = [...index].map(
      ([hex, entry]) =>
        `${entry.revokedAt ? 'R' : 'V'}\t${indexDate(entry.validTo)}\t${entry.revokedAt ? indexDate(entry.revokedAt) : ''}\t${hex}\tunknown\t${entry.subject}\n`,
    );
    writeFileSync(path.join(dir, 'index.txt'), lines.join(''));
  };
  writeIndex();
  return {
    /** The root a client trusts. */
    ca: readFileSync(path.join(dir, 'ca.pem'), 'utf8'),
    /**
     * A leaf certificate for `names` (wildcards and IPv4 addresses allowed), with a serial number of its own; with
     * `ocspUrl`, its Authority Information Access names that OCSP responder.
     */
    issue(names: string[], options: { ocspUrl?: string } = {}) {
      serial++;
      const alt = names.map((name) => (/^\d+\.\d+\.\d+\.\d+$/.test(name) ? `IP:${name}` : `DNS:${name}`));
      const extensions = [`subjectAltName=${alt.join(',')}`];
      if (options.ocspUrl) extensions.push(`authorityInfoAccess=OCSP;URI:${options.ocspUrl}`);
      writeFileSync(path.join(dir, 'ext.cnf'), `${extensions.join('\n')}\n`);
      openssl(['req', ...ec, '-keyout', 'leaf.key', '-out', 'leaf.csr', '-subj', `/CN=${names[0]}`]);
      openssl([
        'x509',
        '-req',
        '-in',
        'leaf.csr',
        '-CA',
        'ca.pem',
        '-CAkey',
        'ca.key',
        '-set_serial',
        String(serial),
        '-days',
        '2',
        '-extfile',
        'ext.cnf',
        '-out',
        'leaf.pem',
      ]);
      const cert = readFileSync(path.join(dir, 'leaf.pem'), 'utf8');
      const hex = serial.toString(16).toUpperCase();
      index.set(hex, {
        validTo: new Date(new X509Certificate(cert).validTo),
        subject: `/CN=${names[0]}`,
        revokedAt: null,
      });
      writeIndex();
      return { cert, key: readFileSync(path.join(dir, 'leaf.key'), 'utf8'), serial: hex };
    },
    /** Marks a certificate revoked in the index (a responder started afterwards answers so). */
    revoke(serialHex: string) {
      const entry = index.get(serialHex);
      if (!entry) throw new Error(`no certificate ${serialHex}`);
      entry.revokedAt = new Date();
      writeIndex();
    },
    /**
     * Starts `openssl ocsp` on `port` answering for this authority's certificates, next update in
     * `nextUpdateMinutes`; resolves once it takes connections. Its answers are signed by the CA
     * itself, or with `signer: 'delegated'` by a responder certificate the CA issued for OCSP
     * signing, or with `signer: 'stranger'` by a key the CA never certified.
     */
    async startOcspResponder(
      port: number,
      options: { nextUpdateMinutes?: number; signer?: 'ca' | 'delegated' | 'stranger' } = {},
    ): Promise<ChildProcess> {
      const signer = options.signer ?? 'ca';
      if (signer !== 'ca') {
        openssl(['req', ...ec, '-keyout', `${signer}.key`, '-out', `${signer}.csr`, '-subj', `/CN=OCSP ${signer}`]);
        writeFileSync(path.join(dir, 'responder.cnf'), 'extendedKeyUsage=OCSPSigning\n');
        const [issuerCert, issuerKey] = signer === 'delegated' ? ['ca.pem', 'ca.key'] : [undefined, `${signer}.key`];
        openssl([
          'x509',
          '-req',
          '-in',
          `${signer}.csr`,
          ...(issuerCert ? ['-CA', issuerCert, '-CAkey', issuerKey, '-set_serial', '4242'] : ['-signkey', issuerKey]),
          '-days',
          '2',
          '-extfile',
          'responder.cnf',
          '-out',
          `${signer}.pem`,
        ]);
      }
      const responder = spawn(
        'openssl',
        [
          'ocsp',
          '-index',
          'index.txt',
          '-port',
          String(port),
          '-rsigner',
          `${signer}.pem`,
          '-rkey',
          `${signer}.key`,
          '-CA',
          'ca.pem',
          '-nmin',
          String(options.nextUpdateMinutes ?? 10),
        ],
        { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      // It says when it listens; a connection made only to probe it would stall it (it serves one at a time).
      await new Promise<void>((resolve, reject) => {
        let said = '';
        const timer = setTimeout(() => reject(new Error(`openssl ocsp is not listening on ${port}: ${said}`)), 10_000);
        const listen = (chunk: Buffer) => {
          said += chunk.toString();
          if (!said.includes('waiting for OCSP client connections')) return;
          clearTimeout(timer);
          resolve();
        };
        responder.stdout?.on('data', listen);
        responder.stderr?.on('data', listen);
        responder.once('exit', (code) => reject(new Error(`openssl ocsp exited (${code}): ${said}`)));
      });
      return responder;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * Wharf's settings for HTTPS on `httpsPort` with an operator certificate: the chain (leaf first)
 * and key are written into `dir`; the console is `localhost` and the sites `*.sites.localhost`.
 */
export function operatorTlsEnv(dir: string, pair: { chain: string; key: string }, httpsPort: number) {
  const certFile = path.join(dir, 'tls.crt');
  const keyFile = path.join(dir, 'tls.key');
  writeFileSync(certFile, pair.chain);
  writeFileSync(keyFile, pair.key);
  return {
    WHARF_HTTPS_PORT: String(httpsPort),
    WHARF_TLS_CERT: certFile,
    WHARF_TLS_KEY: keyFile,
    WHARF_URL: `https://localhost:${httpsPort}`,
    WHARF_SITES_URL: `https://sites.localhost:${httpsPort}`,
  };
}
