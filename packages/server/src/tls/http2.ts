import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { type Http2ServerRequest, Http2ServerResponse } from 'node:http2';

/**
 * Headers that describe an HTTP/1.1 connection. HTTP/2 forbids them (RFC 9113 §8.2.2): Node
 * throws when an answer carries `transfer-encoding`, `upgrade` or `keep-alive`, and drops
 * `connection` with a warning. Wharf's handlers set some on purpose (a draining process answers
 * `Connection: close`) or pass them on from an upstream; on HTTP/2 they are left out.
 */
const CONNECTION_SPECIFIC = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade']);

function connectionSpecific(name: string) {
  return CONNECTION_SPECIFIC.has(name.toLowerCase());
}

type HeaderList = readonly (string | number | readonly string[])[];
type RawHeaders = OutgoingHttpHeaders | HeaderList;

function isHeaderList(headers: RawHeaders): headers is HeaderList {
  return Array.isArray(headers);
}

/** The headers of a `writeHead` without the connection-specific ones (object, or flat name/value list). */
function withoutConnectionSpecific(headers: RawHeaders | undefined): RawHeaders | undefined {
  if (!headers) return headers;
  if (isHeaderList(headers)) {
    const kept: (string | number | readonly string[])[] = [];
    for (let i = 0; i + 1 < headers.length; i += 2) {
      const [name, value] = [headers[i] as string, headers[i + 1] as string | readonly string[]];
      if (!connectionSpecific(name)) kept.push(name, value);
    }
    return kept;
  }
  const kept: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!connectionSpecific(name)) kept[name] = value;
  return kept;
}

/** The answer to an HTTP/2 stream: as Node's, without the headers HTTP/2 forbids (see CONNECTION_SPECIFIC). */
export class Http2Answer extends Http2ServerResponse {
  override setHeader(name: string, value: number | string | readonly string[]) {
    if (!connectionSpecific(name)) super.setHeader(name, value);
  }

  override appendHeader(name: string, value: string | string[]) {
    if (!connectionSpecific(name)) super.appendHeader(name, value);
  }

  override writeHead(statusCode: number, headers?: OutgoingHttpHeaders): this;
  override writeHead(statusCode: number, statusMessage: string, headers?: OutgoingHttpHeaders): this;
  override writeHead(statusCode: number, message?: string | RawHeaders, headers?: RawHeaders): this {
    // Node's compat layer takes the same forms as HTTP/1.1's: (status, headers) or (status, message, headers).
    const write = super.writeHead as (status: number, ...rest: unknown[]) => this;
    if (typeof message === 'string') return write.call(this, statusCode, message, withoutConnectionSpecific(headers));
    return write.call(this, statusCode, withoutConnectionSpecific(message));
  }
}

/**
 * Hands an HTTP/2 stream to the handlers written for HTTP/1.1 (Fastify's, the edge's, the cluster
 * worker's): Node's compat request and answer offer the surface they use (method, url, headers,
 * socket with its address and `encrypted`, streaming both ways, setHeader/writeHead/end). What
 * differs is taken care of where it matters: the host comes from `:authority` (requestHost), the
 * pseudo-headers are not passed on to an upstream (isPseudoHeader), and the answer drops the
 * connection-specific headers (Http2Answer). This is the one place the two are told apart.
 */
export function asHttp1(req: Http2ServerRequest, res: Http2ServerResponse): [IncomingMessage, ServerResponse] {
  return [req as unknown as IncomingMessage, res as unknown as ServerResponse];
}
