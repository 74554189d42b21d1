import { execFileSync } from 'node:child_process';
import path from 'node:path';

export interface BenchCertificate {
  certFile: string;
  keyFile: string;
}

/** The name wrk connects to over TLS: it sends it as SNI, and every server has a certificate for it. */
export const TLS_HOST = 'localhost';

/**
 * One self-signed certificate (EC P-256, as ACME hands out by default) for the bench's host names:
 * `localhost` (the sites host, and the name wrk sends as SNI) and `*.localhost` (the sites). The
 * three servers serve this same pair, so the handshake costs the same key operations everywhere.
 */
export function benchCertificate(dir: string): BenchCertificate {
  const certFile = path.join(dir, 'bench-cert.pem');
  const keyFile = path.join(dir, 'bench-key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '2',
      '-subj',
      `/CN=${TLS_HOST}`,
      '-addext',
      `subjectAltName=DNS:${TLS_HOST},DNS:*.${TLS_HOST}`,
    ],
    { stdio: 'ignore' },
  );
  return { certFile, keyFile };
}
