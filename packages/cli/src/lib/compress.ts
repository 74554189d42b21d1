import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

/** A content coding the CLI sends request bodies in. */
export type BodyCoding = 'zstd' | 'gzip';

// zstd's functions came with Node 22.15 and 23.8; an older Node sends gzip.
const hasZstd = typeof zlib.zstdCompress === 'function';
const zstd = hasZstd ? promisify(zlib.zstdCompress) : null;
const gzip = promisify(zlib.gzip);
const unzstd = hasZstd ? promisify(zlib.zstdDecompress) : null;
const gunzip = promisify(zlib.gunzip);
// Level 4: most of the saving of the default 6 at about twice its speed; gzip is only the fallback.
const GZIP_OPTIONS = { level: 4 };

/** The coding to send bodies in: the first of the server's (best first) that this Node can make, or none. */
export function codingFor(serverCodings: readonly string[]): BodyCoding | null {
  for (const coding of serverCodings) {
    if (coding === 'zstd' && hasZstd) return 'zstd';
    if (coding === 'gzip') return 'gzip';
  }
  return null;
}

/** Bytes compressed in a thread of libuv's pool: several batches are compressed at once. */
export function compress(coding: BodyCoding, bytes: Buffer): Promise<Buffer> {
  return coding === 'zstd' && zstd ? zstd(bytes) : gzip(bytes, GZIP_OPTIONS);
}

/** A file (or its bytes in memory) compressed as it is read: a large one is never whole in memory. */
export function compressedStream(coding: BodyCoding, source: string | Buffer): Readable {
  const input = typeof source === 'string' ? createReadStream(source) : Readable.from([source]);
  const compressor = coding === 'zstd' && hasZstd ? zlib.createZstdCompress() : zlib.createGzip(GZIP_OPTIONS);
  input.on('error', (error: Error) => compressor.destroy(error));
  return input.pipe(compressor);
}

/** The codings the CLI reads answers in (`Accept-Encoding`), best first: a release's file list is large. */
export const ANSWER_CODINGS = hasZstd ? 'zstd, gzip' : 'gzip';

/** An answer's bytes, decoded from the coding it came in; one the CLI did not ask for is refused. */
export function decodeAnswer(coding: string | undefined, bytes: Buffer): Promise<Buffer> {
  const name = coding?.trim().toLowerCase();
  if (!name || name === 'identity') return Promise.resolve(bytes);
  if (name === 'zstd' && unzstd) return unzstd(bytes);
  if (name === 'gzip' || name === 'x-gzip') return gunzip(bytes);
  return Promise.reject(new Error(`the answer came in ${coding}, a coding this wharf does not read`));
}
