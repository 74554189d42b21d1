import type { ServerResponse } from 'node:http';
import type { BlobReader } from '../storage/localFiles.ts';
import type { EdgeLog } from './edgeLog.ts';

/**
 * A release file read whole, checked against the size its release recorded. A missing or short
 * one (a disk that lost writes in a power cut, a file removed by hand) is logged and refused, never
 * answered as if it were the file.
 */
export async function readStoredBlob(blobs: BlobReader, key: string, size: number, log: EdgeLog): Promise<Buffer> {
  let content: Buffer | null;
  try {
    content = await blobs.readAll(key);
  } catch (error) {
    log.error({ err: error, blob: key, recordedBytes: size }, 'a release file could not be read from the store');
    throw error;
  }
  if (content === null) {
    log.error({ blob: key, recordedBytes: size }, 'a release file is missing from the store');
    throw Object.assign(new Error(`Blob ${key} is missing`), { code: 'ENOENT' });
  }
  if (content.length !== size) {
    log.error({ blob: key, recordedBytes: size, storedBytes: content.length }, 'a release file has the wrong size');
    throw new Error(`Blob ${key} has ${content.length} bytes, its release says ${size}`);
  }
  return content;
}

/**
 * Streams bytes `start` to `end` of a release file into an answer whose headers promise them all.
 * When the file is missing or ends early, that is logged and the connection cut: the client sees
 * a failed download rather than a short file it would take (and cache) as complete.
 */
export async function streamStoredBlob(
  res: ServerResponse,
  blobs: BlobReader,
  key: string,
  range: { start: number; end: number },
  log: EdgeLog,
) {
  const expected = range.end - range.start + 1;
  const stream = await blobs.readRange(key, range.start, range.end).catch((error: unknown) => {
    log.error({ err: error, blob: key }, 'a release file could not be read from the store');
    return null;
  });
  if (!stream) {
    log.error({ blob: key }, 'a release file is missing from the store');
    res.destroy();
    return;
  }
  let read = 0;
  stream.on('data', (chunk: Buffer) => {
    read += chunk.length;
  });
  stream.on('error', (error) => {
    log.error({ err: error, blob: key }, 'a release file could not be read from the store');
    res.destroy();
  });
  stream.on('end', () => {
    if (read === expected) return res.end();
    log.error({ blob: key, range, storedBytes: range.start + read }, 'a release file is shorter than its release says');
    res.destroy();
  });
  // A client that goes away stops the read; the file is not held open.
  res.on('close', () => stream.destroy());
  stream.pipe(res, { end: false });
}
