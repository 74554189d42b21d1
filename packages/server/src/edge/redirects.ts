import http, { type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { Redirect } from '@wharf/contract';
import { contentTypeOf } from '../lib/contentType.ts';
import { sendPage } from './pages.ts';

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
  headers: [string, string][],
) {
  const body = Buffer.from(content);
  const out: OutgoingHttpHeaders = {
    'content-type': contentTypeOf(path),
    'content-length': String(body.length),
    'cache-control': 'public, max-age=0, must-revalidate',
  };
  for (const [name, value] of headers) out[name.toLowerCase()] = value;
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
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
]);

const UPSTREAM_TIMEOUT_MS = 30_000;

/** The upstream URL: the rule's URL joined with the request path, less `stripPathPrefix`. */
export function upstreamUrl(target: string, stripPathPrefix: string | undefined, path: string, query: string) {
  const rest = stripPathPrefix && path.startsWith(stripPathPrefix) ? path.slice(stripPathPrefix.length) : path;
  const base = new URL(target);
  const joined = `${base.pathname.replace(/\/$/, '')}/${rest.replace(/^\//, '')}`;
  return new URL(joined + query, base);
}

/**
 * Streams the request to the upstream and its answer back: method, body and headers, with the
 * X-Forwarded headers set. A failing or silent upstream answers the 502 page. Resolves, once the
 * answer is over, with the number of body bytes sent.
 */
export function proxy(
  req: IncomingMessage,
  res: ServerResponse,
  input: { url: URL; clientAddress: string; proto: string; dropAuthorization: boolean },
): Promise<number> {
  let sent = 0;
  const over = new Promise<number>((resolve) => res.once('close', () => resolve(sent)));
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(name)) headers[name] = value;
  if (input.dropAuthorization) delete headers.authorization;
  const forwardedFor = req.headers['x-forwarded-for'];
  headers['x-forwarded-for'] = forwardedFor ? `${forwardedFor}, ${input.clientAddress}` : input.clientAddress;
  headers['x-forwarded-host'] = req.headers.host ?? '';
  headers['x-forwarded-proto'] = input.proto;
  const client = input.url.protocol === 'https:' ? https : http;
  const upstream = client.request(
    input.url,
    { method: req.method, headers, timeout: UPSTREAM_TIMEOUT_MS },
    (answer) => {
      const out: OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(answer.headers)) if (!HOP_BY_HOP.has(name)) out[name] = value;
      res.writeHead(answer.statusCode ?? 502, out);
      answer.on('data', (chunk: Buffer) => {
        sent += chunk.length;
      });
      answer.pipe(res);
    },
  );
  const fail = () => {
    if (!res.headersSent) sent = sendPage(res, 502, 'badGateway');
    else res.destroy();
  };
  upstream.on('timeout', () => upstream.destroy(new Error('upstream timeout')));
  upstream.on('error', fail);
  req.pipe(upstream);
  return over;
}
