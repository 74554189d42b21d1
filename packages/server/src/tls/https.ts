import { hkdfSync } from 'node:crypto';
import type { Server as HttpServer, IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import https from 'node:https';
import type { TLSSocket } from 'node:tls';
import type { HttpsConfig } from '../config.ts';
import { CertificateStore, type CertificateStoreOptions, TLS_OPTIONS } from './certificateStore.ts';

/**
 * Paths plain HTTP keeps answering when HTTPS is on: ACME's challenges, custom domains' ownership
 * challenges (checked over plain HTTP, before the domain may have a certificate) and the health checks.
 */
const STAYS_PLAIN = /^\/(?:\.well-known\/(?:acme-challenge|wharf-ownership)\/|(?:healthz|readyz)(?:\?|$))/;

/**
 * Session ticket keys derived from the server secret: every process of an installation (each
 * worker of a cluster, and later each node) resumes the sessions the others started. Without
 * shared keys each process would have its own, and a visitor whose next connection reaches
 * another worker would go through a full handshake again.
 */
export function ticketKeysFrom(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'wharf', 'tls session tickets', 48));
}

/**
 * Wraps the request listener the HTTP and the HTTPS servers share: over TLS, answers carry
 * `Strict-Transport-Security`; over plain HTTP, requests are sent on to HTTPS with a 308 (same
 * host and path), except ACME's challenges and the health checks.
 */
export function httpsListener(https: HttpsConfig | null, listener: RequestListener): RequestListener {
  if (!https) return listener;
  return (req, res) => {
    if ((req.socket as TLSSocket).encrypted) {
      if (https.hsts) res.setHeader('strict-transport-security', https.hsts);
      listener(req, res);
    } else if (STAYS_PLAIN.test(req.url ?? '')) listener(req, res);
    else redirectToHttps(req, res, https.port);
  };
}

function redirectToHttps(req: IncomingMessage, res: ServerResponse, port: number) {
  let hostname: string | null = null;
  try {
    hostname = req.headers.host ? new URL(`http://${req.headers.host}`).hostname : null;
  } catch {
    hostname = null;
  }
  if (!hostname) {
    res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('A Host header is required.\n');
    return;
  }
  const path = req.url?.startsWith('/') ? req.url : '/';
  const location = `https://${hostname}${port === 443 ? '' : `:${port}`}${path}`;
  res.writeHead(308, { location, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  res.end(req.method === 'HEAD' ? undefined : `Moved to ${location}\n`);
}

/**
 * The TLS side of a process: an HTTPS server that hands every request (and WebSocket upgrade)
 * to `plain`, the HTTP server, so both follow the same path (console, API, sites). HTTP/1.1 for
 * now; HTTP/2 with ALPN comes with a later step.
 */
export function createTlsFront(
  settings: HttpsConfig,
  secret: string,
  plain: HttpServer,
  log: CertificateStoreOptions['log'],
) {
  const ticketKeys = ticketKeysFrom(secret);
  const certificates = new CertificateStore({
    certFile: settings.certFile,
    keyFile: settings.keyFile,
    ticketKeys,
    log,
  });
  certificates.watch();
  // No default certificate: a client that names no host (or an unknown one) gets no handshake.
  const server = https.createServer({ ...TLS_OPTIONS, ticketKeys, SNICallback: certificates.sniCallback });
  server.on('request', (req, res) => plain.emit('request', req, res));
  server.on('upgrade', (req, socket, head) => plain.emit('upgrade', req, socket, head));
  server.on('close', () => certificates.close());
  return { server, certificates };
}

export type TlsFront = ReturnType<typeof createTlsFront>;

/** Starts accepting TLS connections on the HTTPS port; fails like `listen` (a port in use). */
export function listenTls(front: TlsFront, port: number, host: string) {
  return new Promise<void>((resolve, reject) => {
    front.server.once('error', reject);
    front.server.listen(port, host, () => {
      front.server.off('error', reject);
      resolve();
    });
  });
}
