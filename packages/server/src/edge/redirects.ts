import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import { contentTypeOf, type Redirect } from '@wharf/contract';
import { isPseudoHeader, requestHost } from '../http/requestHost.ts';
import type { OutboundGuard } from '../outbound/guard.ts';
import { sendOutbound } from '../outbound/request.ts';
import type { AnswerHeader } from './answerHeaders.ts';
import { sendPage } from './pages.ts';
import { forwardedPath } from './proxyPath.ts';

/** The first rule whose path is the request path, or a prefix of it when the rule ends with `*`. */
export function matchRedirect(redirects: Redirect[], path: string): Redirect | null {
  for (const rule of redirects) {
    if (rule.path.endsWith('*') ? path.startsWith(rule.path.slice(0, -1)) : rule.path === path) return rule;
  }
  return null;
}

export function sendFileRule(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  content: string,
  headers: readonly AnswerHeader[],
) {
  const body = Buffer.from(content);
  const out: OutgoingHttpHeaders = {
    'content-type': contentTypeOf(path),
    'content-length': String(body.length),
    'cache-control': 'public, max-age=0, must-revalidate',
  };
  for (const [name, value] of headers) {
    if (value === null) delete out[name.toLowerCase()];
    else out[name.toLowerCase()] = value;
  }
  res.writeHead(200, out);
  if (req.method === 'HEAD') {
    res.end();
    return 0;
  }
  res.end(body);
  return body.length;
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** The headers meant for the far end: without the hop-by-hop ones, nor any the `Connection` header names. */
function endToEnd(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const named = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase()),
  );
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers))
    if (!HOP_BY_HOP.has(name) && !named.has(name) && !isPseudoHeader(name)) out[name] = value;
  return out;
}

const UPSTREAM_TIMEOUT_MS = 30_000;

/** The upstream URL: the rule's URL joined with the raw request path (see `forwardedPath`) and query. */
export function upstreamUrl(rule: { url: string; stripPathPrefix?: string }, rawPath: string, query: string) {
  const url = new URL(rule.url);
  url.pathname = url.pathname.replace(/\/$/, '') + forwardedPath(rawPath, rule.stripPathPrefix);
  url.search = query;
  return url;
}

/**
 * Streams the request to the upstream and its answer back: method, body and headers, with the
 * X-Forwarded headers set. The connection goes through the outbound guard, so a refused address is
 * never reached; a refused, failing or silent upstream answers the 502 page. The upstream's own
 * redirects go back to the visitor as they are, never followed here. Resolves, once the answer is
 * over, with the number of body bytes sent.
 */
export function proxy(
  req: IncomingMessage,
  res: ServerResponse,
  input: { url: URL; clientAddress: string; proto: string; dropAuthorization: boolean; outbound: OutboundGuard },
): Promise<number> {
  let sent = 0;
  const over = new Promise<number>((resolve) => res.once('close', () => resolve(sent)));
  const headers = endToEnd(req.headers);
  // The upstream's Host comes from the rule's URL; the visitor's goes in X-Forwarded-Host.
  delete headers.host;
  if (input.dropAuthorization) delete headers.authorization;
  const forwardedFor = req.headers['x-forwarded-for'];
  headers['x-forwarded-for'] = forwardedFor ? `${forwardedFor}, ${input.clientAddress}` : input.clientAddress;
  headers['x-forwarded-host'] = requestHost(req) ?? '';
  headers['x-forwarded-proto'] = input.proto;
  // A visitor who leaves frees the upstream connection at once rather than after the answer.
  const visitorLeft = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) visitorLeft.abort();
  });
  sendOutbound(input.outbound, {
    url: input.url,
    method: req.method ?? 'GET',
    headers,
    // Without a body the request can be sent again on a new connection (see sendOutbound).
    body: hasBody(req) ? req : undefined,
    timeout: UPSTREAM_TIMEOUT_MS,
    signal: visitorLeft.signal,
  }).then(
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
      answer.on('data', (chunk: Buffer) => {
        sent += chunk.length;
      });
      answer.on('error', () => res.destroy());
      answer.pipe(res);
    },
    () => {
      if (visitorLeft.signal.aborted) return;
      if (!res.headersSent) sent = sendPage(res, 502, 'badGateway');
      else res.destroy();
    },
  );
  return over;
}

/**
 * Whether a request carries a body: over HTTP/1.1 a length above zero or chunked framing (RFC 9112
 * §6.3); over HTTP/2, a stream its HEADERS frame did not end.
 */
function hasBody(req: IncomingMessage) {
  if (req.httpVersionMajor === 2) return !(req as unknown as Http2ServerRequest).stream.endAfterHeaders;
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}
