import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import type { EdgeLog } from './edgeLog.ts';

/**
 * A release file read whole, checked against the size its release recorded. A missing or short
 * one (a disk that lost writes in a power cut, a file removed by hand) is logged and refused, never
 * answered as if it were the file.
 */
export async function readStoredBlob(file: string, key: string, size: number, log: EdgeLog): Promise<Buffer> {
  let content: Buffer;
  try {
    content = await readFile(file);
  } catch (error) {
    log.error({ err: error, blob: key, recordedBytes: size }, 'a release file is missing from the store');
    throw error;
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
export function streamStoredBlob(
  res: ServerResponse,
  file: string,
  key: string,
  range: { start: number; end: number },
  log: EdgeLog,
) {
  const expected = range.end - range.start + 1;
  let read = 0;
  const stream = createReadStream(file, range);
  stream.on('data', (chunk) => {
    read += chunk.length;
  });
  stream.on('error', (error) => {
    log.error({ err: error, blob: key }, 'a release file is missing from the store');
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
