import { openAsBlob, readFileSync } from 'node:fs';
import { isWorthCompressingToSend } from '@wharf/contract/upload';
import tar from 'tar-stream';
import { ApiError, FileChangedError } from '../api/apiErrors.ts';
import type { UploadCalls } from '../api/uploadCalls.ts';
import { folderError } from '../failures.ts';
import type { FolderFile } from '../folder/hashFiles.ts';
import { type BodyCoding, compress, compressedStream } from '../lib/compress.ts';

/**
 * Files travel many to a request, as a tar: a site of thousands of small files then costs tens of
 * requests, not thousands, and the server takes each batch into its store in one step. A batch
 * is held in memory while it is sent, so it stays small; larger files go alone, streamed.
 */
const BATCH_BYTES = 4 * 1024 * 1024;
const BATCH_FILES = 256;

/** Whether a file goes compressed when the server takes a coding. */
const compressible = (file: FolderFile) => isWorthCompressingToSend(file.path);

/**
 * The files in upload order: batches of small files, and each large file on its own. Files worth
 * compressing and files compressed already (images, fonts, video) go in batches of their own,
 * so that each batch is compressed on the wire or not as a whole.
 */
export function batchesOf(files: FolderFile[]): FolderFile[][] {
  return [...batchesOfKind(files.filter(compressible)), ...batchesOfKind(files.filter((file) => !compressible(file)))];
}

function batchesOfKind(files: FolderFile[]): FolderFile[][] {
  const batches: FolderFile[][] = [];
  let batch: FolderFile[] = [];
  let bytes = 0;
  for (const file of files) {
    if (file.size > BATCH_BYTES) {
      batches.push([file]);
      continue;
    }
    if (batch.length === BATCH_FILES || bytes + file.size > BATCH_BYTES) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(file);
    bytes += file.size;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/** An epoch time for every entry: the same files make the same bytes, so a retry is the same request. */
const ENTRY_TIME = new Date(0);

/**
 * A batch as a tar whose entries are named by their sha256, as the server takes
 * them. A file whose size changed since it was hashed is refused here; one whose content changed
 * at the same size, by the server.
 */
async function tarOfBatch(files: FolderFile[]): Promise<Buffer[]> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (chunk) => chunks.push(chunk as Buffer));
  const ended = new Promise<void>((resolve, reject) => {
    pack.on('end', resolve);
    pack.on('error', reject);
  });
  for (const file of files) {
    const content = file.content ?? readFileSync(file.absolutePath);
    if (content.length !== file.size) {
      pack.destroy();
      throw new FileChangedError();
    }
    pack.entry({ name: file.hash, size: file.size, mode: 0o644, mtime: ENTRY_TIME }, content);
  }
  pack.finalize();
  await ended;
  return chunks;
}

/** A hash mismatch: the file changed after it was hashed, and no retry can help that. */
function changedFile(error: unknown, what: string) {
  const changed =
    error instanceof FileChangedError || (error instanceof ApiError && error.code === 'DEPLOY_HASH_MISMATCH');
  return changed
    ? folderError(`${what} changed while it was being uploaded; upload again once the build is done`)
    : error;
}

/** A server that takes single files but not batches (an older Wharf): 404 of the route itself. */
const hasNoBatches = (error: unknown) =>
  error instanceof ApiError && error.status === 404 && error.code !== 'DEPLOY_NOT_FOUND';

/** A stream that counts the bytes it passes on into `counter.bytes`. */
async function* counted(chunks: AsyncIterable<Uint8Array>, counter: { bytes: number }) {
  for await (const chunk of chunks) {
    counter.bytes += chunk.byteLength;
    yield chunk;
  }
}

/**
 * Sends the files a deploy lacks, a batch at a time, and answers the bytes each request carried: a
 * batch of several as a tar, a file alone (a large one, or the one file a redeploy changed) as its
 * bytes, so that it costs nothing more than itself. With a `coding`, what is worth compressing is
 * compressed on the way. A batch of files compressed already goes in zstd too: zstd stores their
 * bytes as they are at hundreds of MB/s, and takes out the tar's framing, a 512-byte header and
 * up to 511 bytes of padding per file (1.5 MB of a site with 2,000 images); gzip would cost 25×
 * the time for it.
 */
export function fileSender(wharf: UploadCalls, deployId: string, coding: BodyCoding | null) {
  let batchesRefused = false;
  const uploadFile = async (file: FolderFile) => {
    try {
      if (coding && compressible(file)) {
        const sent = { bytes: 0 };
        await wharf.uploadDeployFile(deployId, file.hash, () => {
          sent.bytes = 0;
          const stream = compressedStream(coding, file.content ?? file.absolutePath);
          return { content: counted(stream, sent), contentType: 'application/octet-stream', contentEncoding: coding };
        });
        return sent.bytes;
      }
      const content = file.content ? new Blob([file.content]) : await openAsBlob(file.absolutePath);
      await wharf.uploadDeployFile(deployId, file.hash, () => ({ content, contentType: 'application/octet-stream' }));
      return file.size;
    } catch (error) {
      throw changedFile(error, file.absolutePath);
    }
  };
  const uploadEach = async (files: FolderFile[]) => {
    let sent = 0;
    for (const file of files) sent += await uploadFile(file);
    return sent;
  };
  return async (batch: FolderFile[]): Promise<number> => {
    if (batchesRefused || batch.length === 1) return uploadEach(batch);
    const tar = await tarOfBatch(batch);
    try {
      if (coding && (coding === 'zstd' || batch.every(compressible))) {
        const compressed = await compress(coding, Buffer.concat(tar));
        await wharf.uploadDeployFiles(deployId, compressed, coding);
        return compressed.length;
      }
      await wharf.uploadDeployFiles(deployId, tar);
      return tar.reduce((sum, chunk) => sum + chunk.length, 0);
    } catch (error) {
      if (!hasNoBatches(error)) throw changedFile(error, 'A file of the folder');
      batchesRefused = true;
      return uploadEach(batch);
    }
  };
}
