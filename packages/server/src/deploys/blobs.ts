import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';
import { contentTypeOf, isCompressible } from '../lib/contentType.ts';
import { now, randomString } from '../lib/ids.ts';
import type { WharfApp } from '../wharfApp.ts';

export type Variant = 'identity' | 'br' | 'gzip';

/** Where a release file's content lives: `files/ab/abcdef…`, with `.br` and `.gz` beside it. */
export function blobKey(hash: string, variant: Variant = 'identity') {
  const suffix = variant === 'br' ? '.br' : variant === 'gzip' ? '.gz' : '';
  return `files/${hash.slice(0, 2)}/${hash}${suffix}`;
}

export interface IngestedFile {
  tempPath: string;
  hash: string;
  size: number;
}

function temporaryPath(app: WharfApp) {
  return path.join(app.config.dataDir, 'tmp', `${Date.now().toString(36)}-${randomString(10)}`);
}

/** Writes a stream to a temporary file while hashing it: nothing is held in memory. */
export async function ingest(app: WharfApp, stream: Readable, guard?: Transform): Promise<IngestedFile> {
  const tempPath = temporaryPath(app);
  await mkdir(path.dirname(tempPath), { recursive: true });
  const hash = createHash('sha256');
  let size = 0;
  stream.on('data', (chunk: Buffer) => {
    hash.update(chunk);
    size += chunk.length;
  });
  try {
    await (guard
      ? pipeline(stream, guard, createWriteStream(tempPath))
      : pipeline(stream, createWriteStream(tempPath)));
  } catch (error) {
    await rm(tempPath, { force: true });
    throw error;
  }
  return { tempPath, hash: hash.digest('hex'), size };
}

const MIN_COMPRESSIBLE_SIZE = 256;

/** Compresses a file into a sibling temp file; keeps it only when it saves bytes. */
async function compressedVariant(app: WharfApp, source: string, size: number, variant: 'br' | 'gzip') {
  const target = temporaryPath(app);
  const compressor =
    variant === 'br'
      ? createBrotliCompress({
          params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: size },
        })
      : createGzip({ level: 9 });
  await pipeline(createReadStream(source), compressor, createWriteStream(target));
  const compressedSize = (await stat(target)).size;
  if (compressedSize >= size) {
    await rm(target, { force: true });
    return null;
  }
  return { target, size: compressedSize };
}

/**
 * Moves an ingested file into the content-addressed store, with brotli and gzip variants for
 * text formats, and records the blob. A blob already stored is simply dropped: files are shared.
 */
export async function commitBlob(app: WharfApp, file: IngestedFile, filePath: string) {
  const existing = await app.db.selectFrom('blobs').select('hash').where('hash', '=', file.hash).executeTakeFirst();
  if (existing && (await app.blobs.size(blobKey(file.hash))) === file.size) {
    await rm(file.tempPath, { force: true });
    return;
  }
  const variants = { br: null as number | null, gzip: null as number | null };
  if (file.size >= MIN_COMPRESSIBLE_SIZE && isCompressible(contentTypeOf(filePath))) {
    for (const variant of ['br', 'gzip'] as const) {
      const compressed = await compressedVariant(app, file.tempPath, file.size, variant);
      if (!compressed) continue;
      await app.blobs.putFile(blobKey(file.hash, variant), compressed.target);
      variants[variant] = compressed.size;
    }
  }
  await app.blobs.putFile(blobKey(file.hash), file.tempPath);
  await app.db
    .insertInto('blobs')
    .values({ hash: file.hash, size: file.size, br_size: variants.br, gz_size: variants.gzip, created_at: now() })
    .onConflict((oc) =>
      oc.column('hash').doUpdateSet({ size: file.size, br_size: variants.br, gz_size: variants.gzip }),
    )
    .execute();
}
