import type http from 'node:http';
import type { OutboundGuard } from '../../../outbound/guard.ts';
import { readKept, sendOutbound } from '../../../outbound/request.ts';

/** Kept of an answer's body: enough to see what a receiver said, never a whole page. */
export const KEPT_BODY_BYTES = 4096;
export const DELIVERY_TIMEOUT_MS = 10_000;

export interface PostResult {
  status: number;
  headers: Record<string, string>;
  /** The first 4 KB of the answer, as text. */
  body: string;
}

const flatHeaders = (headers: http.IncomingHttpHeaders) =>
  Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]),
  );

/**
 * POSTs a body through the outbound guard and answers the status, headers and the start of the
 * body; fails on a refused address, a network error, or 10 s without a whole answer. Redirects are
 * not followed: a receiver answers where it was told to be.
 */
export function post(
  guard: OutboundGuard,
  url: URL,
  headers: Record<string, string>,
  body: string,
): Promise<PostResult> {
  return sendOutbound(guard, {
    url,
    method: 'POST',
    headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
    body,
    signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    // Sent again on a connection the receiver closed under it: the queue would send it again anyway.
    repeatable: true,
  }).then(async (res) => ({
    status: res.statusCode ?? 0,
    headers: flatHeaders(res.headers),
    body: (await readKept(res, KEPT_BODY_BYTES)).toString('utf8'),
  }));
}
