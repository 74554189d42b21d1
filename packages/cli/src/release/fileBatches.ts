import { openAsBlob, readFileSync } from 'node:fs';
import tar from 'tar-stream';
import { ApiError, FileChangedError } from '../api/apiErrors.ts';
import type { WharfApi } from '../api/wharfApi.ts';
import { folderError } from '../failures.ts';
import type { FolderFile } from '../folder/hashFiles.ts';

/**
 * Files travel many to a request, as a tar: a site of thousands of small files then costs tens of
 * requests, not thousands, and the server takes each batch into its store in one step. A batch
 * is held in memory while it is sent, so it stays small; larger files go alone, streamed.
 */
const BATCH_BYTES = 4 * 1024 * 1024;
const BATCH_FILES = 256;

/** The files in upload order: batches of small files, and each large file on its own. */
export function batchesOf(files: FolderFile[]): FolderFile[][] {
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
 * A batch as an uncompressed tar whose entries are named by their sha256, as the server takes
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

/**
 * Sends the files a deploy lacks, a batch at a time, and answers the bytes each request carried: a
 * batch of several as a tar, a file alone (a large one, or the one file a redeploy changed) as its
 * raw bytes, so that it costs nothing more than itself.
 */
export function fileSender(wharf: WharfApi, deployId: string) {
  let batchesRefused = false;
  const uploadFile = async (file: FolderFile) => {
    try {
      const content = file.content ? new Blob([file.content]) : await openAsBlob(file.absolutePath);
      await wharf.uploadDeployFile(deployId, file.hash, content);
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
      await wharf.uploadDeployFiles(deployId, tar);
      return tar.reduce((sum, chunk) => sum + chunk.length, 0);
    } catch (error) {
      if (!hasNoBatches(error)) throw changedFile(error, 'A file of the folder');
      batchesRefused = true;
      return uploadEach(batch);
    }
  };
}
