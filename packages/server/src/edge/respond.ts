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
const SMALL_FILE = 128 * 1024;

export function cacheControlOf(path: string, contentType: string) {
  if (contentType.startsWith('text/html')) return REVALIDATE;
  return FINGERPRINTED.test(path) ? IMMUTABLE : REVALIDATE;
}

function acceptedVariant(req: IncomingMessage, file: ServedFile): Variant {
  const accept = req.headers['accept-encoding'];
  if (!accept || req.headers.range) return 'identity';
  if (file.brSize !== null && /\bbr\b/.test(accept)) return 'br';
  if (file.gzSize !== null && /\bgzip\b/.test(accept)) return 'gzip';
  return 'identity';
}

function matchesEtag(header: string | undefined, etag: string) {
  if (!header) return false;
  return header === '*' || header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** A single `bytes=a-b` range; null when absent or not one we serve (then the whole file goes). */
function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const match = header && /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  const start = match[1] === '' ? Math.max(0, size - Number(match[2])) : Number(match[1]);
  const end = match[1] === '' || match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start > end || start >= size) return 'unsatisfiable';
  return { start, end };
}

/** Sends release files: ETag and 304, Range and 206, precompressed variants, small files from memory. */
export class FileResponder {
  private readonly small = new LruCache<string, Buffer>(64 * 1024 * 1024, (buffer) => buffer.length);

  constructor(private readonly pathOf: (key: string) => string) {}

  async send(req: IncomingMessage, res: ServerResponse, file: ServedFile, status: number, extra: [string, string][]) {
    const variant = acceptedVariant(req, file);
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

    if (status === 200 && matchesEtag(req.headers['if-none-match'], etag)) {
      delete headers['content-type'];
      res.writeHead(304, headers);
      return res.end();
    }
    const size = variant === 'br' ? file.brSize! : variant === 'gzip' ? file.gzSize! : file.size;
    const range = status === 200 ? parseRange(req.headers.range, size) : null;
    if (range === 'unsatisfiable') {
      res.writeHead(416, { 'content-range': `bytes */${size}` });
      return res.end();
    }
    const start = range?.start ?? 0;
    const end = range?.end ?? size - 1;
    headers['content-length'] = String(size === 0 ? 0 : end - start + 1);
    if (range) headers['content-range'] = `bytes ${start}-${end}/${size}`;
    res.writeHead(range ? 206 : status, headers);
    if (req.method === 'HEAD' || size === 0) return res.end();
    await this.writeBody(res, blobKey(file.hash, variant), size, start, end);
  }

  private async writeBody(res: ServerResponse, key: string, size: number, start: number, end: number) {
    if (size <= SMALL_FILE) {
      let content = this.small.get(key);
      if (!content) {
        content = await readFile(this.pathOf(key));
        this.small.set(key, content);
      }
      return res.end(start === 0 && end === size - 1 ? content : content.subarray(start, end + 1));
    }
    const stream = createReadStream(this.pathOf(key), { start, end });
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  }
}
