import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import tar from 'tar-stream';
import type { FolderFile } from '../folder/hashFiles.ts';

/** Adds one file, read from disk in chunks; tar-stream fails it if the size changed since hashing. */
function addFile(pack: tar.Pack, file: FolderFile, mtime: Date) {
  return new Promise<void>((resolve, reject) => {
    const entry = pack.entry({ name: file.path, size: file.size, mode: 0o644, mtime }, (error) =>
      error ? reject(error) : resolve(),
    );
    (async () => {
      // Chunks no larger than the file: a read stream allocates its whole chunk size for each file.
      const highWaterMark = Math.max(1, Math.min(file.size, 64 * 1024));
      for await (const chunk of createReadStream(file.absolutePath, { highWaterMark })) {
        if (!entry.write(chunk as Buffer)) await once(entry, 'drain');
      }
      entry.end(null); // streamx's end wants an argument; null writes nothing more
    })().catch((error: Error) => {
      entry.destroy(error);
      reject(error);
    });
  });
}

/**
 * The folder as a tar.gz stream, read from disk as the reader pulls: memory stays flat whatever
 * the size of the site. `onPacked` is told each file once it is in the archive. Every entry has
 * the time `mtime`, so packing the same files again gives the same bytes: a retried upload is then
 * the same request to the server.
 */
export function packFolder(files: FolderFile[], mtime: Date, onPacked: (file: FolderFile) => void): Readable {
  const pack = tar.pack();
  const gzip = createGzip();
  pack.pipe(gzip);
  pack.on('error', (error: Error) => gzip.destroy(error));
  (async () => {
    for (const file of files) {
      await addFile(pack, file, mtime);
      onPacked(file);
    }
    pack.finalize();
  })().catch((error: Error) => pack.destroy(error));
  return gzip;
}
