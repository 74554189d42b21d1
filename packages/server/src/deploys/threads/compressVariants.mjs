// A compression thread (node:worker_threads): makes the brotli and gzip variants of a stored
// file, each into a staging file the main thread then commits. Plain JavaScript, so that it runs
// as it is under the test runner, tsx and the bundled server alike.
import { createReadStream, createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { parentPort } from 'node:worker_threads';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';

/** The same settings the variants always had: the best ratio that still compresses in reasonable time. */
function compressor(variant, sizeHint) {
  if (variant === 'br') {
    return createBrotliCompress({
      params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: sizeHint },
    });
  }
  return createGzip({ level: 9 });
}

/** Writes one variant and answers its size in bytes. */
async function writeVariant(input, output, variant, sizeHint) {
  const target = createWriteStream(output);
  await pipeline(createReadStream(input), compressor(variant, sizeHint), target);
  return target.bytesWritten;
}

parentPort.on('message', async (task) => {
  try {
    const sizes = {};
    for (const [variant, output] of Object.entries(task.outputs)) {
      sizes[variant] = await writeVariant(task.input, output, variant, task.size);
    }
    parentPort.postMessage({ id: task.id, sizes });
  } catch (error) {
    parentPort.postMessage({ id: task.id, error: error instanceof Error ? error.message : String(error) });
  }
});
