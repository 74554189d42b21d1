import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { negotiateVariant } from '../http/acceptEncoding.ts';
import { LruCache } from '../lib/lru.ts';
import { blobKey, type Variant } from '../releaseFiles/blobKeys.ts';
import type { BlobReader } from '../storage/localFiles.ts';
import { type AnswerHeader, applyAnswerHeaders } from './answerHeaders.ts';
import { preconditionStatus, rangeStillApplies } from './conditions.ts';
import type { EdgeLog } from './edgeLog.ts';
import { isFingerprinted } from './fingerprint.ts';
import type { ServedFile } from './manifests.ts';
import { sendPage } from './pages.ts';
import type { PendingVariants } from './pendingVariants.ts';
import { readStoredBlob, streamStoredBlob } from './storedBlob.ts';

const REVALIDATE = 'public, max-age=0, must-revalidate';
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Files up to this size are answered from memory (up to 64 MB of them); larger ones stream from disk. */
const MEMORY_FILE = 1024 * 1024;
/**
 * Until its stored variants exist, a text file up to this size is compressed as it is asked for,
 * at a fast level (well under a millisecond), and the result kept in memory with the files.
 */
const ON_THE_FLY_FILE = 64 * 1024;

const compressBrotli = promisify(brotliCompress);
const compressGzip = promisify(gzip);

/** Fast levels: a few times the speed of the stored variants' (brotli 9, gzip 9), at a little more size. */
function compressNow(content: Buffer, variant: 'br' | 'gzip'): Promise<Buffer> {
  if (variant === 'br') return compressBrotli(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
  return compressGzip(content, { level: 6 });
}

/** An answer's form: a stored one, or one compressed on the fly (its own ETag, never a stored variant's). */
type Form = Variant | 'br-fast' | 'gzip-fast';

export function cacheControlOf(path: string, contentType: string) {
  if (contentType.startsWith('text/html')) return REVALIDATE;
  return isFingerprinted(path) ? IMMUTABLE : REVALIDATE;
}

/** One stored form of a file (as is, brotli or gzip) with the headers of its full answer. */
interface PreparedVariant {
  key: string;
  size: number;
  etag: string;
  modifiedAt: number;
  headers: OutgoingHttpHeaders;
  /** The path's headers (`AnswerHeaders`) in `headers`, for the answers that are not the file (412, 416). */
  extra: readonly AnswerHeader[];
}

/** A file's answers under one set of branch headers, built on first use rather than per request. */
interface PreparedFile {
  extra: readonly AnswerHeader[];
  variants: Partial<Record<Form, PreparedVariant>>;
}

function prepareVariant(file: ServedFile, form: Form, extra: readonly AnswerHeader[], size: number): PreparedVariant {
  const etag = form === 'identity' ? `"${file.hash}"` : `"${file.hash}-${form}"`;
  const headers: OutgoingHttpHeaders = {
    'content-type': file.contentType,
    etag,
    'last-modified': file.lastModified,
    'cache-control': cacheControlOf(file.path, file.contentType),
    'accept-ranges': 'bytes',
  };
  if (file.brSize !== null || file.gzSize !== null || file.variantsPending) headers.vary = 'Accept-Encoding';
  if (form !== 'identity') headers['content-encoding'] = form.replace('-fast', '');
  for (const [name, value] of extra) {
    // `! Name` in `_headers` removes one of the defaults above.
    if (value === null) delete headers[name.toLowerCase()];
    else headers[name.toLowerCase()] = value;
  }
  headers['content-length'] = String(size);
  const variant = form === 'br-fast' || form === 'gzip-fast' ? 'identity' : form;
  return { key: blobKey(file.hash, variant), size, etag, modifiedAt: file.modifiedAt, headers, extra };
}

const storedSize = (file: ServedFile, variant: Variant) =>
  variant === 'br' ? file.brSize! : variant === 'gzip' ? file.gzSize! : file.size;

/** Ranges are always of the unencoded file: a resumed download stays one representation whatever it accepts. */
function acceptedVariant(req: IncomingMessage, file: ServedFile): Variant {
  if (req.headers.range !== undefined) return 'identity';
  return negotiateVariant(req.headers['accept-encoding'], file.brSize !== null, file.gzSize !== null);
}

/** The encoding to compress a small pending file in now, if the client wants one. */
function onTheFlyVariant(req: IncomingMessage, file: ServedFile): 'br' | 'gzip' | null {
  if (!file.variantsPending || file.size > ON_THE_FLY_FILE || req.headers.range !== undefined) return null;
  const variant = negotiateVariant(req.headers['accept-encoding'], true, true);
  return variant === 'identity' ? null : variant;
}

/**
 * A single `bytes=a-b` range; null when absent or not one we serve (then the whole file goes). The
 * unit is case-insensitive, as every token of HTTP (RFC 9110 §14.1).
 */
function parseRange(header: string, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const match = /^bytes=(\d*)-(\d*)$/i.exec(header.trim());
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

  constructor(
    private readonly blobs: BlobReader,
    private readonly log: EdgeLog,
    private readonly pending?: PendingVariants,
  ) {}

  send(
    req: IncomingMessage,
    res: ServerResponse,
    file: ServedFile,
    status: number,
    extra: readonly AnswerHeader[],
  ): number | Promise<number> {
    // Headers prepared while the variants were pending are stale once they exist.
    if (file.variantsPending && this.pending?.refresh(file)) this.prepared.delete(file);
    const now = onTheFlyVariant(req, file);
    if (now) return this.sendCompressedNow(req, res, file, status, extra, now);
    const variant = acceptedVariant(req, file);
    return this.answer(req, res, this.variantOf(file, variant, extra), status);
  }

  private answer(
    req: IncomingMessage,
    res: ServerResponse,
    variant: PreparedVariant,
    status: number,
    content?: Buffer,
  ): number | Promise<number> {
    // Conditions and ranges concern the file found, not the release's 404 page (RFC 9110 §13.2.1).
    const condition = status === 200 ? preconditionStatus(req.headers, variant) : 200;
    if (condition === 412) {
      applyAnswerHeaders(res, variant.extra);
      return sendPage(res, 412, 'preconditionFailed');
    }
    if (condition === 304) {
      const { 'content-type': _type, 'content-length': _length, ...headers } = variant.headers;
      res.writeHead(304, headers);
      res.end();
      return 0;
    }
    const range =
      status === 200 && req.headers.range !== undefined && rangeStillApplies(req.headers, variant)
        ? parseRange(req.headers.range, variant.size)
        : null;
    if (range === 'unsatisfiable') {
      applyAnswerHeaders(res, variant.extra);
      res.writeHead(416, { 'content-range': `bytes */${variant.size}` });
      res.end();
      return 0;
    }
    if (range) {
      const length = variant.size === 0 ? 0 : range.end - range.start + 1;
      const head = {
        ...variant.headers,
        'content-length': String(length),
        'content-range': `bytes ${range.start}-${range.end}/${variant.size}`,
      };
      return this.writeBody(req, res, variant, () => res.writeHead(206, head), range);
    }
    const head = () => res.writeHead(status, variant.headers);
    if (content) {
      head();
      return this.writeContent(req, res, content);
    }
    return this.writeBody(req, res, variant, head, { start: 0, end: variant.size - 1 });
  }

  /** A pending file compressed now (once: the result stays in memory with the files). */
  private sendCompressedNow(
    req: IncomingMessage,
    res: ServerResponse,
    file: ServedFile,
    status: number,
    extra: readonly AnswerHeader[],
    variant: 'br' | 'gzip',
  ): number | Promise<number> {
    const form = variant === 'br' ? 'br-fast' : 'gzip-fast';
    const memoryKey = `${blobKey(file.hash)}#${form}`;
    const compressed = this.memory.get(memoryKey);
    if (compressed) return this.answer(req, res, this.formOf(file, form, extra, compressed.length), status, compressed);
    const identity = this.variantOf(file, 'identity', extra);
    const content = this.memory.get(identity.key) ?? readStoredBlob(this.blobs, identity.key, file.size, this.log);
    return Promise.resolve(content)
      .then((read) => compressNow(read, variant))
      .then((made) => {
        this.memory.set(memoryKey, made);
        return this.answer(req, res, this.formOf(file, form, extra, made.length), status, made);
      });
  }

  private preparedOf(file: ServedFile, extra: readonly AnswerHeader[]) {
    let prepared = this.prepared.get(file);
    // Branches share a release's files; the headers are rebuilt when another branch's differ.
    if (prepared?.extra !== extra) {
      prepared = { extra, variants: {} };
      this.prepared.set(file, prepared);
    }
    return prepared;
  }

  private variantOf(file: ServedFile, variant: Variant, extra: readonly AnswerHeader[]) {
    return this.formOf(file, variant, extra, storedSize(file, variant));
  }

  private formOf(file: ServedFile, form: Form, extra: readonly AnswerHeader[], size: number) {
    const prepared = this.preparedOf(file, extra);
    let ready = prepared.variants[form];
    if (!ready || ready.size !== size) {
      ready = prepareVariant(file, form, extra, size);
      prepared.variants[form] = ready;
    }
    return ready;
  }

  private writeContent(req: IncomingMessage, res: ServerResponse, content: Buffer) {
    if (req.method === 'HEAD') {
      res.end();
      return 0;
    }
    res.end(content);
    return content.length;
  }

  /**
   * A stored file's bytes, read (or their stream opened) before `head` is written: a store that
   * does not answer gets the edge's 503 page, not a promising head followed by a cut connection.
   */
  private writeBody(
    req: IncomingMessage,
    res: ServerResponse,
    variant: PreparedVariant,
    head: () => void,
    { start, end }: { start: number; end: number },
  ): number | Promise<number> {
    if (req.method === 'HEAD' || variant.size === 0) {
      head();
      res.end();
      return 0;
    }
    if (variant.size > MEMORY_FILE) {
      return streamStoredBlob(res, this.blobs, variant.key, { start, end }, this.log, head).then(() => end - start + 1);
    }
    const content = this.memory.get(variant.key);
    if (content) {
      head();
      return sendSlice(res, content, start, end);
    }
    return readStoredBlob(this.blobs, variant.key, variant.size, this.log).then((read) => {
      this.memory.set(variant.key, read);
      head();
      return sendSlice(res, read, start, end);
    });
  }
}
