import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { requestHost } from '../http/requestHost.ts';
import { percentEncode } from '../releaseRules/percentEncode.ts';
import { storeFailureOf } from '../storage/storeFailure.ts';
import { type AnswerHeader, applyAnswerHeaders } from './answerHeaders.ts';
import type { EdgeLog } from './edgeLog.ts';
import { type PageName, sendPage } from './pages.ts';
import type { BranchEntry, SiteEntry } from './routingTable.ts';

/** The number of body bytes an answer sent, once it is known. */
export type Answer = number | Promise<number>;

export interface SiteRequest {
  req: IncomingMessage;
  res: ServerResponse;
  site: SiteEntry;
  branch: BranchEntry;
  /** Decoded and normalised, without the leading slash. */
  path: string;
  /** As the client sent it, still percent-encoded: what a reverse-proxy rule forwards. */
  rawPath: string;
  /** In the normal form rules and header patterns are matched in (releaseRules/normalPath.ts). */
  rulePath: string;
  /** The path asked for a release's `Basic-Auth` user: the credential stops at the edge. */
  guarded?: boolean;
  trailingSlash: boolean;
  query: string;
  /** The request's host name, lowercase and without its port: what host rules match. */
  host: string;
  /** The `Strict-Transport-Security` its answers carry (over TLS), in `headers` too. */
  hsts: string | null;
  /**
   * The headers of this path's answers: the console's (and HSTS over TLS) at first, with the
   * release's `_headers` once known. None is set on the answer before the answer is written: a
   * file's prepared headers carry them, and Node writes an answer whose headers all come in one
   * `writeHead` on its fast path (a header set before sends every one through `setHeader`).
   */
  headers: readonly AnswerHeader[];
  /** Whether `headers` are on the answer already (`headersToWrite`). */
  headersWritten: boolean;
}

/** The headers an answer the edge writes itself must carry, once: none when they are on it already. */
export function headersToWrite(request: SiteRequest): readonly AnswerHeader[] {
  if (request.headersWritten) return [];
  request.headersWritten = true;
  return request.headers;
}

/** Sets the path's headers on an answer the edge writes itself (a page, a refusal, a proxied answer). */
export function applyRequestHeaders(request: SiteRequest) {
  applyAnswerHeaders(request.res, headersToWrite(request));
}

/**
 * A redirect; `extra` are headers not set on the answer yet (`headersToWrite`), written with it in
 * one go, which costs a tiny answer less than setting them one by one.
 */
export function redirectTo(res: ServerResponse, status: number, location: string, extra: readonly AnswerHeader[] = []) {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of extra) {
    if (value === null) res.removeHeader(name);
    else headers[name] = value;
  }
  headers.location = safeLocation(location);
  headers['content-length'] = '0';
  res.writeHead(status, headers);
  res.end();
  return 0;
}

/**
 * A Location a browser reads as the redirect meant: visible ASCII only (anything else
 * percent-encoded as UTF-8, so no header is ever refused or mangled), and never `//host` or
 * `/\host` when it is a path, which browsers would take for another site.
 */
export function safeLocation(location: string): string {
  const ascii = /^[\x21-\x7e]*$/.test(location) ? location : location.replace(/[^\x21-\x7e]+/g, percentEncode);
  return ascii.startsWith('/') ? ascii.replace(/^[/\\]+/, '/') : ascii;
}

/**
 * Where a request moves to another host: the same scheme, port (one listener serves them all),
 * path and query there.
 */
export function movedHostLocation(req: IncomingMessage, protocol: string, host: string) {
  const port = /:\d+$/.exec(requestHost(req) ?? '')?.[0] ?? '';
  const url = req.url ?? '/';
  // An absolute-form target (`GET http://host/path`) keeps its path and query only.
  const absolute = url.startsWith('/') ? null : URL.parse(url);
  const target = absolute ? `${absolute.pathname}${absolute.search}` : url.startsWith('/') ? url : '/';
  return `${protocol}://${host}${port}${target}`;
}

/** A console redirect keeps the request's query unless its target has one of its own. */
export function withQuery(target: string, query: string) {
  return target.includes('?') ? target : `${target}${query}`;
}

/** One of the edge's own pages, with the path's headers. */
export function sendRequestPage(request: SiteRequest, status: number, page: PageName) {
  applyRequestHeaders(request);
  return sendPage(request.res, status, page);
}

/** A password refused (401), or asked too often (429), with the path's headers. */
export function refuse(request: SiteRequest, verdict: 'denied' | 'limited') {
  const { res, site } = request;
  applyRequestHeaders(request);
  if (verdict === 'limited') return sendPage(res, 429, 'tooManyRequests', { 'retry-after': '60' });
  return sendPage(res, 401, 'unauthorized', { 'www-authenticate': `Basic realm="${site.name}", charset="UTF-8"` });
}

/**
 * The site's headers, with the branch's overriding them, on every answer the edge gives for the
 * site: files, pages, redirects, refusals and proxied answers alike. An answer's own header of the
 * same name wins (a page stays `no-store`, an upstream keeps its `Cache-Control`), except on files,
 * whose prepared headers take the site's over the edge's defaults (respond.ts).
 */
export function applySiteHeaders(res: ServerResponse, headers: [string, string][]) {
  for (const [name, value] of headers) res.setHeader(name, value);
}

/** A page for a request that got no further than its site or branch, with their headers (and HSTS over TLS). */
export function sendEarlyPage(
  res: ServerResponse,
  hsts: string | null,
  headers: [string, string][],
  status: number,
  page: PageName,
) {
  if (hsts) res.setHeader('strict-transport-security', hsts);
  applySiteHeaders(res, headers);
  return sendPage(res, status, page);
}

/**
 * An answer that failed unexpectedly: logged with where it happened, then a 500 when nothing was
 * sent yet (a 503 when the database or the store is away), else a cut connection (the client must not take a
 * half answer for a whole one). Answers the status to count and the bytes sent.
 */
export function failed(log: EdgeLog, req: IncomingMessage, res: ServerResponse, error: unknown) {
  // The store logs its outage once; each visitor meanwhile is told to come back, not "Internal error".
  if (storeFailureOf(error) === 'unavailable' && !res.headersSent)
    return { status: 503, bytes: sendPage(res, 503, 'storeUnavailable', { 'retry-after': '5' }) };
  const where = { err: error, host: requestHost(req), path: req.url };
  const outage = isDatabaseUnavailable(error);
  if (outage) log.warn(where, 'site request failed: the database is unavailable');
  else log.error(where, 'site request failed');
  if (res.headersSent) {
    res.destroy();
    return { status: 500, bytes: 0 };
  }
  // What is not in memory yet (a release's file list) waits for the database: try again shortly.
  if (outage) return { status: 503, bytes: sendPage(res, 503, 'unavailable', { 'retry-after': '5' }) };
  res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
  res.end('Internal error');
  return { status: 500, bytes: 0 };
}
