import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { pack } from 'tar-stream';
import type { Executor } from '../../db/schema.ts';
import { blobKey } from '../../releaseFiles/blobKeys.ts';
import type { BlobStore } from '../../storage/blobStore.ts';

/** Paths read at a time: a release may have 100,000 files, never all in memory. */
const BATCH = 1000;

/** The release's files in path order, a batch at a time (keyset on the path). */
async function* filesOf(db: Executor, releaseId: string) {
  let after = '';
  for (;;) {
    const rows = await db
      .selectFrom('release_files')
      .select(['path', 'hash', 'size'])
      .where('release_id', '=', releaseId)
      .where('path', '>', after)
      .orderBy('path')
      .limit(BATCH)
      .execute();
    yield* rows;
    if (rows.length < BATCH) return;
    after = rows.at(-1)!.path;
  }
}

/**
 * The release as a tar.gz, streamed: each file read from the store as its entry is written, so
 * that a large release costs a few buffers. The blobs are the committed release's, which the
 * collection keeps; should one be gone all the same (the release deleted meanwhile), the archive
 * ends with an error rather than quietly short.
 */
export function releaseArchive(db: Executor, blobs: BlobStore, releaseId: string): Readable {
  const tar = pack();
  const gzip = createGzip();
  const fill = async () => {
    const mtime = new Date();
    for await (const file of filesOf(db, releaseId)) {
      const content = await blobs.read(blobKey(file.hash));
      if (!content) throw new Error(`The file ${file.path} of the release is no longer stored`);
      const entry = tar.entry({ name: file.path, size: Number(file.size), mtime, mode: 0o644 });
      await pipeline(content, entry);
    }
    tar.finalize();
  };
  fill().catch((error: Error) => tar.destroy(error));
  tar.pipe(gzip);
  tar.on('error', (error) => gzip.destroy(error));
  return gzip;
}

/** `shop-v2.tar.gz`: the site and the release's name, in characters any file system takes. */
export function archiveName(siteName: string, release: { name: string }) {
  const name = release.name
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return `${siteName}${name ? `-${name}` : ''}.tar.gz`;
}

/** An attachment's header; the name is plain ASCII already (archiveName). */
export function contentDisposition(fileName: string) {
  return `attachment; filename="${fileName}"`;
}
