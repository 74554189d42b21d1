import type { ServerResponse } from 'node:http';
import type { BlobReader } from '../storage/localFiles.ts';
import { storeFailureOf } from '../storage/storeFailure.ts';
import type { EdgeLog } from './edgeLog.ts';

/** A release file the store does not hold: the edge answers 500 (see `failed` in edge.ts). */
function missing(log: EdgeLog, key: string, recordedBytes: number) {
  log.error({ blob: key, recordedBytes }, 'a release file is missing from the store');
  return Object.assign(new Error(`Blob ${key} is missing`), { code: 'ENOENT' });
}

/**
 * Logs a read the store refused. One it did not answer is not logged here: the store logs its
 * outage once, and the edge answers 503.
 */
function unreadable(log: EdgeLog, key: string, error: unknown) {
  if (storeFailureOf(error) !== 'unavailable')
    log.error({ err: error, blob: key }, 'a release file could not be read from the store');
  return error;
}

/**
 * A release file read whole, checked against the size its release recorded. A missing or short
 * one (a disk that lost writes in a power cut, a file removed by hand) is logged and refused, never
 * answered as if it were the file.
 */
export async function readStoredBlob(blobs: BlobReader, key: string, size: number, log: EdgeLog): Promise<Buffer> {
  const content = await blobs.readAll(key).catch((error: unknown) => {
    throw unreadable(log, key, error);
  });
  if (content === null) throw missing(log, key, size);
  if (content.length !== size) {
    log.error({ blob: key, recordedBytes: size, storedBytes: content.length }, 'a release file has the wrong size');
    throw new Error(`Blob ${key} has ${content.length} bytes, its release says ${size}`);
  }
  return content;
}

/**
 * Streams bytes `start` to `end` of a release file into an answer whose `head` promises them
 * all, written once the store has begun to answer: a file missing or a store that does not
 * answer rejects before it, for the edge to answer 500 or 503. A file that ends early, or a store
 * that stops sending midway, is logged and the connection cut: the client sees a failed download
 * rather than a short file it would take (and cache) as complete.
 */
export async function streamStoredBlob(
  res: ServerResponse,
  blobs: BlobReader,
  key: string,
  range: { start: number; end: number },
  log: EdgeLog,
  head: () => void,
) {
  const expected = range.end - range.start + 1;
  const stream = await blobs.readRange(key, range.start, range.end).catch((error: unknown) => {
    throw unreadable(log, key, error);
  });
  if (!stream) throw missing(log, key, expected);
  // A client that went away while the store was asked: nothing to send.
  if (res.destroyed) return void stream.destroy();
  head();
  let read = 0;
  stream.on('data', (chunk: Buffer) => {
    read += chunk.length;
  });
  stream.on('error', (error) => {
    const cut = storeFailureOf(error) === 'unavailable';
    log.error(
      { err: error, blob: key, range, sentBytes: read, expectedBytes: expected },
      cut
        ? 'the store stopped sending a release file midway: the answer was cut'
        : 'a release file could not be read from the store',
    );
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
