import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import type { OutboundGuard } from './guard.ts';

/**
 * A connection the other side closed as the request went out on it: a kept-alive connection that
 * the server let go at the moment it was reused. The request never reached a handler there.
 */
const CLOSED_UNDER_IT = new Set(['ECONNRESET', 'EPIPE']);

/** Methods a repeated request does no harm with (RFC 9110 §9.2.2). */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE', 'PUT', 'DELETE']);

export const isIdempotent = (method: string) => IDEMPOTENT.has(method.toUpperCase());

/** Whether a request failed because its reused connection was closed under it, before any answer. */
export const closedUnderIt = (error: NodeJS.ErrnoException, reusedSocket: boolean) =>
  reusedSocket && CLOSED_UNDER_IT.has(error.code ?? '');

export interface OutboundRequest {
  url: URL;
  method: string;
  headers: http.OutgoingHttpHeaders;
  /** A stream (a visitor's upload) is sent as it comes and so never sent twice. */
  body?: string | Buffer | Readable;
  /** Milliseconds without a byte before the request fails with 'upstream timeout'. */
  timeout?: number;
  signal?: AbortSignal;
  /**
   * Whether the receiver may get it twice though its method is not idempotent: a hook delivery,
   * whose event the queue sends again anyway until it is answered.
   */
  repeatable?: boolean;
}

const isStream = (body: OutboundRequest['body']): body is Readable =>
  body !== undefined && typeof body !== 'string' && !Buffer.isBuffer(body);

/**
 * Sends a request through the outbound guard and resolves with the answer's head. A request whose
 * reused connection was closed under it, before any answer, is sent once more, on a new connection
 * (the other idle ones to that origin are dropped too), when repeating it is harmless: Node's agents keep connections alive, and a server may close an
 * idle one at the very moment it is reused (the "socket hang up" a browser retries silently).
 */
export function sendOutbound(guard: OutboundGuard, request: OutboundRequest): Promise<http.IncomingMessage> {
  const repeatable = !isStream(request.body) && (request.repeatable === true || isIdempotent(request.method));
  return attempt(guard, request, repeatable).catch((error: NodeJS.ErrnoException & { reused?: boolean }) => {
    if (!(repeatable && closedUnderIt(error, error.reused === true))) throw error;
    guard.dropIdleConnections(request.url);
    return attempt(guard, request, false);
  });
}

function attempt(guard: OutboundGuard, request: OutboundRequest, repeatable: boolean) {
  return new Promise<http.IncomingMessage>((resolve, reject) => {
    const client = request.url.protocol === 'https:' ? https : http;
    const req = client.request(
      request.url,
      {
        method: request.method,
        headers: request.headers,
        agent: guard.agentFor(request.url),
        signal: request.signal,
        timeout: request.timeout,
      },
      resolve,
    );
    if (request.timeout !== undefined) req.on('timeout', () => req.destroy(new Error('upstream timeout')));
    req.on('error', (error) => reject(Object.assign(error, { reused: repeatable && req.reusedSocket })));
    if (isStream(request.body)) request.body.pipe(req);
    else req.end(request.body);
  });
}

/** The first `limit` bytes of an answer's body, read to its end (what is past them is let go). */
export function readKept(res: http.IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    res.on('data', (chunk: Buffer) => {
      if (kept >= limit) return;
      chunks.push(chunk.subarray(0, limit - kept));
      kept += Math.min(chunk.length, limit - kept);
    });
    res.on('end', () => resolve(Buffer.concat(chunks)));
    res.on('error', reject);
  });
}
