import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { blobKey, type Variant } from '../deploys/blobs.ts';
import { LruCache } from './lru.ts';
import type { ServedFile } from './manifests.ts';

const REVALIDATE = 'public, max-age=0, must-revalidate';
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Names carrying a content hash, such as `app.3f9a1c2e.js` or `index-BX3k9aQz.css`. */
const FINGERPRINTED = /[.-](?=[A-Za-z0-9_]*\d)[A-Za-z0-9_]{8,}\.[A-Za-z0-9]+$/;
/** Files up to this size are answered from memory (up to 64 MB of them); larger ones stream from disk. */
const MEMORY_FILE = 1024 * 1024;

export function cacheControlOf(path: string, contentType: string) {
  if (contentType.startsWith('text/html')) return REVALIDATE;
  return FINGERPRINTED.test(path) ? IMMUTABLE : REVALIDATE;
}

/** One stored form of a file (as is, brotli or gzip) with the headers of its full answer. */
interface PreparedVariant {
  key: string;
  size: number;
  etag: string;
  headers: OutgoingHttpHeaders;
}

/** A file's answers under one set of branch headers, built on first use rather than per request. */
interface PreparedFile {
  extra: [string, string][];
  variants: Partial<Record<Variant, PreparedVariant>>;
}

function prepareVariant(file: ServedFile, variant: Variant, extra: [string, string][]): PreparedVariant {
  const size = variant === 'br' ? file.brSize! : variant === 'gzip' ? file.gzSize! : file.size;
  const etag = variant === 'identity' ? `"${file.hash}"` : `"${file.hash}-${variant}"`;
  const headers: OutgoingHttpHeaders = {
    'content-type': file.contentType,
    etag,
    'cache-control': cacheControlOf(file.path, file.contentType),
    'accept-ranges': 'bytes',
  };
  if (file.brSize !== null || file.gzSize !== null) headers.vary = 'Accept-Encoding';
  if (variant !== 'identity') headers['content-encoding'] = variant;
  for (const [name, value] of extra) headers[name.toLowerCase()] = value;
  headers['content-length'] = String(size);
  return { key: blobKey(file.hash, variant), size, etag, headers };
}

function acceptedVariant(req: IncomingMessage, file: ServedFile): Variant {
  const accept = req.headers['accept-encoding'];
  if (!accept || req.headers.range !== undefined) return 'identity';
  if (file.brSize !== null && /\bbr\b/.test(accept)) return 'br';
  if (file.gzSize !== null && /\bgzip\b/.test(accept)) return 'gzip';
  return 'identity';
}

function matchesEtag(header: string, etag: string) {
  return header === '*' || header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** A single `bytes=a-b` range; null when absent or not one we serve (then the whole file goes). */
function parseRange(header: string, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  const start = match[1] === '' ? Math.max(0, size - Number(match[2])) : Number(match[1]);
  const end = match[1] === '' || match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start > end || start >= size) return 'unsatisfiable';
  return { start, end };
}

function sendSlice(res: ServerResponse, content: Buffer, start: number, end: number) {
  res.end(start === 0 && end === content.length - 1 ? content : content.subarray(start, end + 1));
  return end - start + 1;
}

/**
 * Sends release files: ETag and 304, Range and 206, precompressed variants, small files from
 * memory. Answers the number of body bytes sent, synchronously when nothing had to be read.
 */
export class FileResponder {
  private readonly memory = new LruCache<string, Buffer>(64 * 1024 * 1024, (buffer) => buffer.length);
  private readonly prepared = new WeakMap<ServedFile, PreparedFile>();

  constructor(private readonly pathOf: (key: string) => string) {}

  send(
    req: IncomingMessage,
    res: ServerResponse,
    file: ServedFile,
    status: number,
    extra: [string, string][],
  ): number | Promise<number> {
    const variant = this.variantOf(file, acceptedVariant(req, file), extra);
    const ifNoneMatch = req.headers['if-none-match'];
    if (status === 200 && ifNoneMatch !== undefined && matchesEtag(ifNoneMatch, variant.etag)) {
      const { 'content-type': _type, 'content-length': _length, ...headers } = variant.headers;
      res.writeHead(304, headers);
      res.end();
      return 0;
    }
    const range =
      status === 200 && req.headers.range !== undefined ? parseRange(req.headers.range, variant.size) : null;
    if (range === 'unsatisfiable') {
      res.writeHead(416, { 'content-range': `bytes */${variant.size}` });
      res.end();
      return 0;
    }
    if (range) {
      const length = variant.size === 0 ? 0 : range.end - range.start + 1;
      res.writeHead(206, {
        ...variant.headers,
        'content-length': String(length),
        'content-range': `bytes ${range.start}-${range.end}/${variant.size}`,
      });
      return this.writeBody(req, res, variant, range.start, range.end);
    }
    res.writeHead(status, variant.headers);
    return this.writeBody(req, res, variant, 0, variant.size - 1);
  }

  private variantOf(file: ServedFile, variant: Variant, extra: [string, string][]) {
    let prepared = this.prepared.get(file);
    // Branches share a release's files; the headers are rebuilt when another branch's differ.
    if (prepared?.extra !== extra) {
      prepared = { extra, variants: {} };
      this.prepared.set(file, prepared);
    }
    let ready = prepared.variants[variant];
    if (!ready) {
      ready = prepareVariant(file, variant, extra);
      prepared.variants[variant] = ready;
    }
    return ready;
  }

  private writeBody(req: IncomingMessage, res: ServerResponse, variant: PreparedVariant, start: number, end: number) {
    const length = end - start + 1;
    if (req.method === 'HEAD' || variant.size === 0) {
      res.end();
      return 0;
    }
    if (variant.size > MEMORY_FILE) {
      const stream = createReadStream(this.pathOf(variant.key), { start, end });
      stream.on('error', () => res.destroy());
      stream.pipe(res);
      return length;
    }
    const content = this.memory.get(variant.key);
    if (content) return sendSlice(res, content, start, end);
    return readFile(this.pathOf(variant.key)).then((read) => {
      this.memory.set(variant.key, read);
      return sendSlice(res, read, start, end);
    });
  }
}
