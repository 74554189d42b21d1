import type { IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import type { PeerCertificate, TLSSocket } from 'node:tls';

export interface HttpsAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The certificate the server showed. */
  certificate: PeerCertificate;
}

/**
 * A GET over TLS to 127.0.0.1 on a connection of its own, as a browser resolving `host` there would
 * send it: SNI and Host name `host`, and the chain is verified against `ca` only.
 */
export function httpsGet(
  port: number,
  host: string,
  ca: string,
  path = '/',
  tls: https.RequestOptions = {},
): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const request = https.get(
      { host: '127.0.0.1', port, path, servername: host, headers: { host }, ca, agent: false, ...tls },
      (response) => {
        const certificate = (response.socket as TLSSocket).getPeerCertificate();
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text, certificate }),
        );
        response.on('error', reject);
      },
    );
    request.setTimeout(10_000, () => request.destroy(new Error('no answer within 10 s')));
    request.on('error', reject);
  });
}

/** Polls until `check` holds (or throws its last failure after the deadline). */
export async function eventually<T>(work: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await work().catch((error: Error) => error);
    if (!(value instanceof Error) && check(value)) return value;
    if (Date.now() > deadline) throw value instanceof Error ? value : new Error(`condition not met: ${String(value)}`);
    await sleep(100);
  }
}
