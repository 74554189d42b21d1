import { hkdfSync } from 'node:crypto';
import type { Server as HttpServer, IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import http2, { Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import type { TLSSocket } from 'node:tls';
import type { Logger } from 'pino';
import type { HttpsConfig } from '../config/types.ts';
import { answerClientError } from '../http/clientErrors.ts';
import { requestHost } from '../http/requestHost.ts';
import { CertificateStore, type CertificateStoreOptions, TLS_OPTIONS } from './certificateStore.ts';
import { asHttp1, Http2Answer } from './http2.ts';
import { OcspStapler } from './ocsp.ts';

/** How long an HTTP/2 connection without a stream stays open (nginx's keepalive_timeout). */
const HTTP2_IDLE_TIMEOUT_MS = 75_000;

/**
 * What one HTTP/2 connection may hold at once, as nginx bounds it: without these, one client
 * opening 20,000 streams on one connection took a process from 139 MB to 2.4 GB. A client
 * asking for more streams than announced gets them refused (RST_STREAM REFUSED_STREAM), and
 * after `maxSessionRejectedStreams` refusals, or a burst of streams opened and cancelled at once
 * (the "rapid reset" attack, which nghttp2 counts itself), a GOAWAY.
 */
const HTTP2_LIMITS = {
  settings: {
    /** nginx's http2_max_concurrent_streams. */
    maxConcurrentStreams: 128,
    /** Twice HTTP/1.1's limit on a request's head (Node's 16 KB), as nginx's 4 × 8 KB buffers. */
    maxHeaderListSize: 32 * 1024,
  },
  /** Megabytes nghttp2 may hold for one connection (frames queued both ways, header tables). */
  maxSessionMemory: 10,
  /** SETTINGS entries in one frame (RFC 9113 defines 6; a flood of them is work for nothing). */
  maxSettings: 32,
  /** Streams refused, and frames that break the protocol, before the connection is closed. */
  maxSessionRejectedStreams: 100,
  maxSessionInvalidFrames: 100,
} as const;

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
 * Wraps the request listener the HTTP and the HTTPS servers share: over plain HTTP, requests are
 * sent on to HTTPS with a 308 (same host and path), except ACME's challenges and the health checks.
 * Answers over TLS carry `Strict-Transport-Security`: the edge writes it with each answer's own
 * headers (edge.ts), everything else sets it with `setHsts`.
 */
export function httpsListener(https: HttpsConfig | null, listener: RequestListener): RequestListener {
  if (!https) return listener;
  return (req, res) => {
    if ((req.socket as TLSSocket).encrypted || STAYS_PLAIN.test(req.url ?? '')) listener(req, res);
    else redirectToHttps(req, res, https.port);
  };
}

/** Sets `Strict-Transport-Security` on an answer over TLS, when the installation sends it. */
export function setHsts(https: HttpsConfig | null, req: IncomingMessage, res: ServerResponse) {
  if (https?.hsts && (req.socket as TLSSocket).encrypted) res.setHeader('strict-transport-security', https.hsts);
}

function redirectToHttps(req: IncomingMessage, res: ServerResponse, port: number) {
  let hostname: string | null = null;
  const host = requestHost(req);
  try {
    hostname = host ? new URL(`http://${host}`).hostname : null;
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
 * The TLS side of a process: a server that speaks HTTP/2 to the clients that offer it by ALPN and
 * HTTP/1.1 to the others, and hands every request (and HTTP/1.1 WebSocket upgrade) to `plain`,
 * the HTTP server, so both follow the same path (console, API, sites).
 */
export function createTlsFront(
  settings: HttpsConfig,
  secret: string,
  plain: HttpServer,
  log: CertificateStoreOptions['log'] & Pick<Logger, 'warn'>,
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
  const server = http2.createSecureServer({
    ...TLS_OPTIONS,
    ticketKeys,
    SNICallback: certificates.sniCallback,
    allowHTTP1: true,
    Http2ServerResponse: Http2Answer,
    ...HTTP2_LIMITS,
  });
  // HTTP/1.1 connections wait for their next request as long as on the plain port (Node sets no
  // keep-alive timeout on an HTTP/2 server's HTTP/1.1 side, nor do its types declare the property
  // its HTTP/1.1 side reads: idle connections would stay open forever).
  Object.assign(server, { keepAliveTimeout: plain.keepAliveTimeout });
  server.on('clientError', answerClientError);
  // With allowHTTP1, HTTP/1.1 requests come as IncomingMessage/ServerResponse, HTTP/2 streams as the compat pair.
  server.on('request', (req: Http2ServerRequest | IncomingMessage, res: Http2ServerResponse | ServerResponse) => {
    if (req instanceof Http2ServerRequest) plain.emit('request', ...asHttp1(req, res as Http2ServerResponse));
    else plain.emit('request', req, res);
  });
  // Clients that ask for the certificate's status get the responder's answer with the handshake.
  server.on('OCSPRequest', new OcspStapler({ log }).onOcspRequest);
  server.on('upgrade', (req: IncomingMessage, socket, head) => plain.emit('upgrade', req, socket, head));
  const connections = new Set<TLSSocket>();
  server.on('secureConnection', (socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  const sessions = new Set<http2.ServerHttp2Session>();
  let draining = false;
  server.on('session', (session) => {
    sessions.add(session);
    // An idle HTTP/2 connection is closed (a GOAWAY) after a while, as browsers and nginx do.
    session.setTimeout(HTTP2_IDLE_TIMEOUT_MS, () => session.close());
    session.once('close', () => sessions.delete(session));
  });
  // While draining, an HTTP/2 connection is served like an HTTP/1.1 one: its request, then no more.
  server.on('stream', (stream) => {
    if (draining) stream.session?.close();
  });
  return {
    server,
    certificates,
    /** Stops taking connections and watching the certificate files. */
    close() {
      certificates.close();
      server.close();
    },
    /**
     * Draining: HTTP/2 sessions get a GOAWAY (the Connection: close of HTTP/1.1, which HTTP/2 has
     * not): their streams under way finish, the client opens a new connection for the next.
     */
    startDraining() {
      draining = true;
      for (const session of sessions) session.close();
    },
    /** Cuts every connection, HTTP/1.1 or HTTP/2 (what a drain does once its grace is over). */
    closeAllConnections() {
      for (const socket of connections) socket.destroy();
    },
  };
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
