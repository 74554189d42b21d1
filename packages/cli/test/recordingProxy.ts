import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  /** Bytes of the request body. */
  bytes: number;
  /** The server answered, and the proxy cut the connection instead of passing the answer on. */
  cut?: boolean;
  /** The Idempotency-Key header sent, if any. */
  idempotencyKey?: string;
  /** The Content-Encoding header sent, if any. */
  contentEncoding?: string;
  /** The Content-Encoding of the server's answer, if any. */
  answerEncoding?: string;
  /** The body as it came, of a manifest (POST …/deploys) only. */
  body?: Buffer;
}

export interface RecordingProxy {
  url: string;
  requests: RecordedRequest[];
  /**
   * Answer the deploys route with this instead of the server's answer: 404 as a Wharf from before
   * incremental deploys, 413 as a server whose request size limit a long manifest exceeds.
   */
  refuseDeploys: { status: number; code: string; message: string } | null;
  /** Answer the next GET …/deploys/base with this, as the server would for a release deleted right after. */
  replaceBase: unknown;
  /** Answer this many of the next file uploads (single or batches) 503, as a server restarting would. */
  failUploads: number;
  /**
   * Let the next request matching this through, wait for the server's answer (it has acted by
   * then), and cut the connection instead of passing the answer on: a network that died at the
   * worst moment. With `holding`, only an answer whose body holds that text is cut (the one poll
   * that carries a token, say); the others pass.
   */
  cutAnswer: { method: string; path: RegExp; holding?: string } | null;
  close(): Promise<void>;
}

const DEPLOYS_ROUTE = /^\/api\/v1\/sites\/[^/]+\/deploys$/;
const BASE_ROUTE = /^\/api\/v1\/sites\/[^/]+\/deploys\/base(\?|$)/;
/** A deploy's files: one (PUT …/files/{hash}) or a batch (POST …/files). */
export const FILE_ROUTE = /^\/api\/v1\/deploys\/[^/]+\/files(\/|$)/;

function answer(response: http.ServerResponse, status: number, code: string, message: string) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ statusCode: status, code, error: http.STATUS_CODES[status], message }));
}

/**
 * Stands between the CLI and a real Wharf and notes every request with its body size, to check
 * what travelled; it can also play an older or a failing server.
 */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const server = http.createServer((request, response) => {
    const record: RecordedRequest = { method: request.method ?? '', path: request.url ?? '', bytes: 0 };
    const idempotencyKey = request.headers['idempotency-key'];
    if (typeof idempotencyKey === 'string') record.idempotencyKey = idempotencyKey;
    const contentEncoding = request.headers['content-encoding'];
    if (contentEncoding) record.contentEncoding = contentEncoding;
    proxy.requests.push(record);
    const isManifest = request.method === 'POST' && DEPLOYS_ROUTE.test(record.path);
    request.on('data', (chunk: Buffer) => {
      record.bytes += chunk.length;
      if (isManifest) record.body = Buffer.concat([record.body ?? Buffer.alloc(0), chunk]);
    });
    const refusal = proxy.refuseDeploys;
    if (refusal && isManifest) {
      request.resume();
      return request.on('end', () => answer(response, refusal.status, refusal.code, refusal.message));
    }
    if (proxy.replaceBase && BASE_ROUTE.test(record.path)) {
      const base = proxy.replaceBase;
      proxy.replaceBase = null;
      response.writeHead(200, { 'content-type': 'application/json' });
      return response.end(JSON.stringify(base));
    }
    if (proxy.failUploads > 0 && FILE_ROUTE.test(record.path)) {
      proxy.failUploads--;
      request.resume();
      return request.on('end', () => answer(response, 503, 'SERVER_UNAVAILABLE', 'Restarting'));
    }
    const forwarded = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path: request.url,
        headers: request.headers,
      },
      (upstreamResponse) => {
        const answerEncoding = upstreamResponse.headers['content-encoding'];
        if (answerEncoding) record.answerEncoding = answerEncoding;
        const cut = proxy.cutAnswer;
        if (cut && request.method === cut.method && cut.path.test(record.path)) {
          const chunks: Buffer[] = [];
          upstreamResponse.on('data', (chunk: Buffer) => chunks.push(chunk));
          return upstreamResponse.on('end', () => {
            const body = Buffer.concat(chunks);
            if (cut.holding === undefined || body.includes(cut.holding)) {
              proxy.cutAnswer = null;
              record.cut = true;
              return response.socket?.destroy();
            }
            response.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.headers);
            response.end(body);
          });
        }
        response.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.headers);
        upstreamResponse.pipe(response);
      },
    );
    forwarded.on('error', () => response.destroy());
    request.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const proxy: RecordingProxy = {
    url: `http://127.0.0.1:${port}`,
    requests: [],
    refuseDeploys: null,
    replaceBase: null,
    failUploads: 0,
    cutAnswer: null,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return proxy;
}
