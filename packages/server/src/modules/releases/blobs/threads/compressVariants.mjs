// A compression thread (node:worker_threads): makes the brotli and gzip variants of a stored
// file, each into a staging file the main thread then commits. Plain JavaScript, so that it runs
// as it is under the test runner, tsx and the bundled server alike.
import { createReadStream, createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { pipeline } from 'node:stream/promises';
import { parentPort } from 'node:worker_threads';
import { brotliCompressSync, constants, createBrotliCompress, createGzip, gzipSync } from 'node:zlib';

// Variants can wait: on Linux this lowers this thread alone, so uploads and requests go first.
try {
  os.setPriority(19);
} catch {
  // Not allowed here: the thread runs at the process's priority.
}

/**
 * Files up to this size are compressed on this thread, synchronously: zlib's streams would do the
 * work on libuv's small shared pool, where it would hold up the file system calls of uploads.
 */
const IN_THREAD_BYTES = 8 * 1024 * 1024;

/** The same settings the variants always had: the best ratio that still compresses in reasonable time. */
function compressor(variant, sizeHint) {
  if (variant === 'br') {
    return createBrotliCompress({
      params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: sizeHint },
    });
  }
  return createGzip({ level: 9 });
}

function compressInThread(content, variant) {
  if (variant === 'br') {
    return brotliCompressSync(content, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
    });
  }
  return gzipSync(content, { level: 9 });
}

/** Writes one variant of a large file, streamed, and answers its size in bytes. */
async function streamVariant(input, output, variant, sizeHint) {
  const target = createWriteStream(output);
  await pipeline(createReadStream(input), compressor(variant, sizeHint), target);
  return target.bytesWritten;
}

parentPort.on('message', async (task) => {
  // The main thread's stopThread: the thread goes between two tasks, never inside zlib's constructors.
  if (task.kind === 'exit') process.exit(0);
  try {
    const sizes = {};
    const content = task.size <= IN_THREAD_BYTES ? readFileSync(task.input) : null;
    for (const [variant, output] of Object.entries(task.outputs)) {
      if (content) {
        const compressed = compressInThread(content, variant);
        writeFileSync(output, compressed);
        sizes[variant] = compressed.length;
      } else sizes[variant] = await streamVariant(task.input, output, variant, task.size);
    }
    parentPort.postMessage({ id: task.id, sizes });
  } catch (error) {
    parentPort.postMessage({ id: task.id, error: error instanceof Error ? error.message : String(error) });
  }
});
