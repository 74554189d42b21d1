import { writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createServer } from 'node:tls';
import { selfSignedCertificate } from '@wharf/server/testing';

export interface TlsRelay {
  /** https://localhost:{port}, in front of the target. */
  url: string;
  /** The relay's self-signed certificate, as a file NODE_EXTRA_CA_CERTS can name. */
  certificateFile: string;
  close(): Promise<void>;
}

/**
 * HTTPS in front of a plain HTTP server, as a reverse proxy terminating TLS with a certificate of
 * an organization's own: each connection is decrypted and its bytes relayed as they are.
 */
export async function startTlsRelay(targetPort: number): Promise<TlsRelay> {
  const { fullchain, privateKey } = selfSignedCertificate('localhost');
  const certificateFile = path.join(await mkdtemp(path.join(os.tmpdir(), 'wharf-relay-')), 'relay.pem');
  writeFileSync(certificateFile, fullchain);
  const server = createServer({ cert: fullchain, key: privateKey }, (secure) => {
    const plain = connect(targetPort, '127.0.0.1');
    secure.pipe(plain).pipe(secure);
    secure.on('error', () => plain.destroy());
    plain.on('error', () => secure.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://localhost:${port}`,
    certificateFile,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
