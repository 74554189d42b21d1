import { execFileSync } from 'node:child_process';
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

/** A test certificate authority (EC P-256, made with openssl) that issues leaf certificates for host names. */
export function testAuthority() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wharf-ca-'));
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  const openssl = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  openssl(['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=Wharf Test CA']);
  let serial = 0x1000;
  return {
    /** The root a client trusts. */
    ca: readFileSync(path.join(dir, 'ca.pem'), 'utf8'),
    /** A leaf certificate for `names` (wildcards and IPv4 addresses allowed), with a serial number of its own. */
    issue(names: string[]) {
      serial++;
      const alt = names.map((name) => (/^\d+\.\d+\.\d+\.\d+$/.test(name) ? `IP:${name}` : `DNS:${name}`));
      writeFileSync(path.join(dir, 'ext.cnf'), `subjectAltName=${alt.join(',')}\n`);
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
      return {
        cert: readFileSync(path.join(dir, 'leaf.pem'), 'utf8'),
        key: readFileSync(path.join(dir, 'leaf.key'), 'utf8'),
        serial: serial.toString(16).toUpperCase(),
      };
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
