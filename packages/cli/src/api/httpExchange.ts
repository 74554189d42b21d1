import { Blob } from 'node:buffer';
import type { ClientRequest } from 'node:http';
import { ANSWER_CODINGS, decodeAnswer } from '../lib/compress.ts';
import { FileChangedError } from './apiErrors.ts';

/** What a request sends: bytes known in advance, a file's blob, or a stream of chunks. */
export type ExchangeBody = string | Buffer | Blob | AsyncIterable<Uint8Array>;

export interface Exchange {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: ExchangeBody;
  /** A bound on the whole exchange (a call to a forge), beside the one on silence every exchange has. */
  timeoutMs?: number;
}

export interface ExchangeAnswer {
  status: number;
  statusText: string;
  text: string;
  /** Where a redirect points (its Location), else null. */
  location: string | null;
}

// Not imported: importing node:http as a module loads undici, for the getters of its module
// namespace, at the cost this module is here to save (see `exchange`); node:https loads TLS,
// which a server on plain HTTP (loopback, a private network) never needs.
const http = process.getBuiltinModule('node:http');
const requestOf = (protocol: string) =>
  protocol === 'https:' ? process.getBuiltinModule('node:https').request : http.request;

// Undici's own limit for a server that stops answering; a retry follows.
const SILENCE_MS = 300_000;

/** The length of a body known in advance; null for a stream, which goes chunked. */
function lengthOf(body: ExchangeBody | undefined): number | null {
  if (body === undefined) return 0;
  if (typeof body === 'string') return Buffer.byteLength(body);
  if (Buffer.isBuffer(body)) return body.length;
  if (body instanceof Blob) return body.size;
  return null;
}

/** Resolves once the request can take more, or is gone. */
const drainedOrClosed = (request: ClientRequest) =>
  new Promise<void>((resolve) => {
    const done = () => {
      request.off('drain', done);
      request.off('close', done);
      resolve();
    };
    request.on('drain', done);
    request.on('close', done);
  });

/**
 * Writes the body as the connection takes it; stops when the server has answered already. A
 * streamed body goes chunked, without its empty chunks: one would end the body, and the server
 * would wait for the rest until a timeout (a tar of an empty file, `.nojekyll`, holds one).
 */
async function writeBody(request: ClientRequest, body: ExchangeBody | undefined, answered: () => boolean) {
  if (body === undefined || typeof body === 'string' || Buffer.isBuffer(body)) {
    request.end(body);
    return;
  }
  const chunks = body instanceof Blob ? (body.stream() as unknown as AsyncIterable<Uint8Array>) : body;
  for await (const chunk of chunks) {
    if (answered() || request.destroyed) return;
    if (chunk.byteLength > 0 && !request.write(chunk)) await drainedOrClosed(request);
  }
  if (!answered() && !request.destroyed) request.end();
}

/** A blob of a file refuses to be read once the file changes: no retry can help that. */
const isFileChanged = (error: unknown) =>
  (error as { name?: string })?.name === 'NotReadableError' ||
  (error as { cause?: { name?: string } })?.cause?.name === 'NotReadableError';

/**
 * One HTTP exchange over node:http, on connections kept alive between calls. Node's fetch would do
 * the same, but loading it costs a command about a fifth of its start (undici is compiled anew in
 * each process), which is most of what a one-file redeploy waits for. Rejects on network errors;
 * an answer of any status resolves, even one the server gave before reading the whole body.
 */
export function exchange({ method, url, headers, body, timeoutMs }: Exchange): Promise<ExchangeAnswer> {
  const target = new URL(url);
  const length = lengthOf(body);
  const send = requestOf(target.protocol);
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = send(target, {
      method,
      headers: {
        'accept-encoding': ANSWER_CODINGS,
        ...headers,
        ...(length === null ? {} : { 'content-length': String(length) }),
      },
    });
    request.setTimeout(SILENCE_MS, () => request.destroy(new Error(`no answer for ${SILENCE_MS / 1000} s`)));
    if (timeoutMs !== undefined) {
      const bound = setTimeout(() => request.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
      request.once('close', () => clearTimeout(bound));
    }
    request.on('error', reject);
    request.on('response', (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        // Answered before the whole body was sent (a refusal): the connection carries no other call.
        if (!request.writableEnded) request.destroy();
        decodeAnswer(response.headers['content-encoding'], Buffer.concat(chunks)).then((body) => {
          const status = response.statusCode ?? 0;
          const location = response.headers.location ?? null;
          resolve({ status, statusText: response.statusMessage ?? '', text: body.toString('utf8'), location });
        }, reject);
      });
    });
    writeBody(request, body, () => answered).catch((error: unknown) => {
      // Reading the body failed (a write failing errs the request, which rejects above).
      const failure = isFileChanged(error) ? new FileChangedError() : error;
      reject(failure);
      request.destroy();
    });
  });
}
