import type { IncomingMessage } from 'node:http';

/**
 * The host (with its port, if any) a request is for: HTTP/2's `:authority` pseudo-header, else
 * HTTP/1.1's Host header. An HTTP/2 client need not send a Host header at all (RFC 9113 §8.3.1).
 */
export function requestHost(req: Pick<IncomingMessage, 'headers'>): string | undefined {
  const authority = req.headers[':authority'];
  return (typeof authority === 'string' && authority) || req.headers.host;
}

/** HTTP/2's pseudo-headers (`:method`, `:path`, `:authority`, `:scheme`): never passed on to an HTTP/1.1 upstream. */
export function isPseudoHeader(name: string) {
  return name.startsWith(':');
}
