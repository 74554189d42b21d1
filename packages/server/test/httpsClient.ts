import type { IncomingHttpHeaders } from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import tls, { type PeerCertificate, type TLSSocket } from 'node:tls';

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

export interface Http2Answer {
  status: number;
  headers: http2.IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

/**
 * An HTTP/2 session over TLS to 127.0.0.1 for `host` (SNI `host`, chain verified against `ca`):
 * the client offers only `h2` by ALPN, so it fails rather than fall back.
 */
export function http2Session(port: number, host: string, ca: string): Promise<http2.ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(`https://127.0.0.1:${port}`, { servername: host, ca });
    session.once('connect', () => resolve(session));
    session.once('error', reject);
  });
}

/** A request on an HTTP/2 session with `:authority` `host` (and no Host header, as browsers send it). */
export function http2Request(
  session: http2.ClientHttp2Session,
  host: string,
  path: string,
  options: { method?: string; headers?: http2.OutgoingHttpHeaders; body?: string | Buffer } = {},
): Promise<Http2Answer> {
  return new Promise((resolve, reject) => {
    const stream = session.request({
      ':method': options.method ?? 'GET',
      ':path': path,
      ':authority': host,
      ...options.headers,
    });
    let headers: http2.IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    stream.on('response', (received) => {
      headers = received;
    });
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const body = Buffer.concat(chunks);
      resolve({ status: Number(headers[':status']), headers, body, text: body.toString('utf8') });
    });
    stream.on('error', reject);
    stream.setTimeout(10_000, () => stream.destroy(new Error('no answer within 10 s')));
    stream.end(options.body);
  });
}

/** The OCSP response a server staples in a handshake for `host` (null when none). */
export function stapled(port: number, host: string, ca: string) {
  return new Promise<Buffer | null>((resolve, reject) => {
    let response: Buffer | null = null;
    const socket = tls.connect(
      { host: '127.0.0.1', port, servername: host, ca, requestOCSP: true } as tls.ConnectionOptions,
      () => {
        resolve(response);
        socket.end();
      },
    );
    // Emitted during the handshake, before secureConnect.
    socket.on('OCSPResponse', (received: Buffer | null) => {
      response = received ?? null;
    });
    socket.on('error', reject);
  });
}

/** The first line of the answer to a WebSocket upgrade sent over TLS with HTTP/1.1. */
export function upgradeStatusLine(port: number, host: string, ca: string, urlPath: string) {
  return new Promise<string>((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, servername: host, ca, ALPNProtocols: ['http/1.1'] }, () => {
      socket.write(
        `GET ${urlPath} HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
          'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
      );
    });
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (received.includes('\r\n')) {
        resolve(received.slice(0, received.indexOf('\r\n')));
        socket.destroy();
      }
    });
    socket.on('error', reject);
  });
}

/** Whether a TLS handshake with 127.0.0.1 for a name completes, the chain verified against `ca`. */
export function handshakes(port: number, servername: string, ca: string) {
  return new Promise<boolean>((resolve) => {
    const socket = tls.connect({ host: '127.0.0.1', port, servername, ca }, () => {
      resolve(true);
      socket.end();
    });
    socket.on('error', () => resolve(false));
  });
}
