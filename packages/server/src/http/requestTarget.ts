import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { type ErrorCode, errorCodes } from '@wharf/contract';
import { errorJson } from './errorHandler.ts';

/** The longest request target (path and query) Wharf reads: nginx's 8 KB header buffer. */
export const URL_LIMIT = 8 * 1024;

/** `http://host[:port]/path?query`, the form a proxy is sent (RFC 9112 §3.2.2). */
const ABSOLUTE_FORM = /^https?:\/\/([^/?#]*)([^#]*)$/i;

interface Refusal {
  code: ErrorCode;
  message: string;
}

/** How many Host header lines the request carried (Node keeps only the first in `headers`). */
function hostLines(req: IncomingMessage) {
  let count = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]!.toLowerCase() === 'host') count++;
  return count;
}

/**
 * Which host the request names, when it names two: two Host headers (RFC 9110 §7.2 allows one),
 * or over HTTP/2 a Host header that differs from `:authority` (RFC 9113 §8.3.1). Anything in
 * front of Wharf may have routed by the other one, so neither is believed.
 */
function conflictingHosts(req: IncomingMessage): Refusal | null {
  if (hostLines(req) > 1) return { code: 'HOST_INVALID', message: 'The request has more than one Host header' };
  const authority = req.headers[':authority'];
  const host = req.headers.host;
  if (typeof authority === 'string' && host !== undefined && authority.toLowerCase() !== host.toLowerCase())
    return { code: 'HOST_INVALID', message: 'The Host header names another host than :authority' };
  return null;
}

/**
 * An absolute-form target names the host, whatever the Host header says (RFC 9112 §3.2.2): the
 * request goes on in origin form (`/path?query`) with that host, so that everything after reads
 * one host and one path.
 */
function toOriginForm(req: IncomingMessage): Refusal | null {
  const url = req.url ?? '/';
  if (url.startsWith('/') || url === '*') return null;
  const absolute = ABSOLUTE_FORM.exec(url);
  const authority = absolute?.[1] ?? '';
  if (!absolute || authority === '' || authority.includes('@'))
    return { code: 'REQUEST_MALFORMED', message: 'The request target is neither a path nor an http(s) URL' };
  const rest = absolute[2] ?? '';
  req.url = rest.startsWith('/') ? rest : `/${rest}`;
  req.headers.host = authority;
  return null;
}

export function refuseRequest(res: ServerResponse, { code, message }: Refusal) {
  const body = errorJson(code, message);
  res.writeHead(errorCodes[code], {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    // What comes after a request read this way on the same connection is not trusted either.
    connection: 'close',
  });
  res.end(body);
}

/**
 * What every HTTP server of Wharf checks before the console, the API or the edge sees a request:
 * one host (named once, by the target when it is absolute) and a target of a readable length.
 */
export function withReadableTarget(listener: RequestListener): RequestListener {
  return (req, res) => {
    const refusal =
      (req.url !== undefined && req.url.length > URL_LIMIT
        ? { code: 'URL_TOO_LONG' as const, message: `The URL is longer than ${URL_LIMIT} characters` }
        : null) ??
      conflictingHosts(req) ??
      toOriginForm(req);
    if (refusal) refuseRequest(res, refusal);
    else listener(req, res);
  };
}
