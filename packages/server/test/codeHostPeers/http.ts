import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Answer, ApiCall, RecordedRequest } from './types.ts';

export type Handler = (request: RecordedRequest, incoming: IncomingMessage) => Answer | Promise<Answer>;

async function readBody(incoming: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(response: ServerResponse, answer: Answer) {
  const isText = typeof answer.body === 'string';
  const body = isText ? (answer.body as string) : JSON.stringify(answer.body);
  response.writeHead(answer.status, {
    ...(isText ? {} : { 'content-type': 'application/json; charset=utf-8' }),
    ...answer.headers,
  });
  response.end(answer.status === 302 ? '' : body);
}

/** An HTTP server on 127.0.0.1 (random port), over TLS with `tls`, that records each request before handling it. */
export async function listenOnLoopback(
  requests: RecordedRequest[],
  handle: Handler,
  tls?: { cert: string; key: string },
): Promise<{ url: string; server: Server }> {
  const listener = async (incoming: IncomingMessage, response: ServerResponse) => {
    try {
      const url = new URL(incoming.url ?? '/', 'http://peer');
      const request: RecordedRequest = {
        method: incoming.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: { ...incoming.headers },
        body: await readBody(incoming),
      };
      requests.push(request);
      send(response, await handle(request, incoming));
    } catch (error) {
      // A fault of the peer itself must show in the test's output, not pass for a provider's refusal.
      console.error('code host peer failed:', error);
      send(response, { status: 500, body: { message: String(error) } });
    }
  };
  const server: Server = tls ? createTlsServer(tls, listener) : createServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return { url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`, server };
}

export function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
}

/** A redirect to `target` with `params` added to its query. */
export function redirectTo(target: string, params: Record<string, string>): Answer {
  const url = new URL(target);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return { status: 302, body: '', headers: { location: url.toString() } };
}

export function htmlPage(status: number, html: string): Answer {
  return { status, body: html, headers: { 'content-type': 'text/html; charset=utf-8' } };
}

/** The page of `items` a `page`/`per_page` query asks for, and the number of pages. */
export function pageOf<T>(items: T[], page: number, perPage: number): { items: T[]; pages: number } {
  const size = Math.max(1, perPage);
  const start = (Math.max(1, page) - 1) * size;
  return { items: items.slice(start, start + size), pages: Math.max(1, Math.ceil(items.length / size)) };
}

/** A number from the query, or `fallback` when absent or not a number; at most `max`. */
export function queryNumber(query: URLSearchParams, name: string, fallback: number, max = Number.POSITIVE_INFINITY) {
  const value = Number.parseInt(query.get(name) ?? '', 10);
  return Math.min(Number.isFinite(value) && value > 0 ? value : fallback, max);
}

/** A `Link` header with rel="next" / rel="last", as the providers paginate. */
export function linkHeader(base: string, query: URLSearchParams, page: number, pages: number): Record<string, string> {
  const to = (n: number) => {
    const url = new URL(base);
    for (const [name, value] of query) url.searchParams.set(name, value);
    url.searchParams.set('page', String(n));
    return url.toString();
  };
  const links = [...(page < pages ? [`<${to(page + 1)}>; rel="next"`] : []), `<${to(pages)}>; rel="last"`];
  return { link: links.join(', ') };
}

/** A page of a list as Gitea answers it: `limit` items (at most 50), the total in X-Total-Count, and a Link header. */
export function giteaList(call: ApiCall, all: unknown[], path: string): Answer {
  const page = queryNumber(call.query, 'page', 1);
  const { items, pages } = pageOf(all, page, queryNumber(call.query, 'limit', 30, 50));
  return {
    status: 200,
    body: items,
    headers: {
      'x-total-count': String(all.length),
      ...linkHeader(`${call.base}/api/v1${path}`, call.query, page, pages),
    },
  };
}
