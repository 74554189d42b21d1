// An unpacking thread (node:worker_threads): gunzips and reads a tar.gz whose bytes the main
// thread passes on as they arrive, writes each file into the blob store's staging area while
// hashing it, and reports every entry. The main thread validates names, records rows and commits;
// this thread only does the CPU-bound part, so the process answering requests is not held up.
// Plain JavaScript, so that it runs as it is under the test runner, tsx and the bundled server.
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';

const { stagingDir, releaseBytes } = workerData;

/** An error the main thread turns into an answer: its code (`RELEASE_TOO_LARGE`, `ENOSPC`, `Z_…`) and message. */
const report = (error) => ({ kind: 'error', code: error?.code ?? null, message: String(error?.message ?? error) });

/**
 * The archive's bytes as the main thread sends them. Each chunk is acknowledged once this side's
 * buffer has room for it, so the main thread holds back the upload instead of filling memory.
 */
let unacknowledged = 0;
const acknowledge = () => {
  if (unacknowledged === 0) return;
  parentPort.postMessage({ kind: 'taken', chunks: unacknowledged });
  unacknowledged = 0;
};
const source = new Readable({ read: acknowledge });
parentPort.on('message', (message) => {
  if (message.kind === 'chunk') {
    unacknowledged++;
    if (source.push(Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.length))) acknowledge();
  } else if (message.kind === 'end') source.push(null);
  else if (message.kind === 'stop') source.destroy(Object.assign(new Error('stopped'), { code: 'STOPPED' }));
  // The main thread's stopThread: everything is reported, and the thread goes between two tasks.
  else if (message.kind === 'exit') process.exit(0);
});

let written = 0;

/** Counts the release's bytes and hashes them on the way to the staging file. */
function digest() {
  const hash = createHash('sha256');
  let size = 0;
  const transform = new Transform({
    transform(chunk, _encoding, done) {
      size += chunk.length;
      written += chunk.length;
      if (written > releaseBytes) {
        const error = new Error(
          `The release is larger than ${Math.round(releaseBytes / 1024 / 1024)} MiB uncompressed`,
        );
        return done(Object.assign(error, { code: 'RELEASE_TOO_LARGE' }));
      }
      hash.update(chunk);
      done(null, chunk);
    },
  });
  return { transform, result: () => ({ hash: hash.digest('hex'), size }) };
}

async function stageEntry(entry) {
  const staged = path.join(stagingDir, `${Date.now().toString(36)}-${randomBytes(8).toString('hex')}`);
  const counted = digest();
  try {
    await pipeline(entry, counted.transform, createWriteStream(staged));
  } catch (error) {
    await rm(staged, { force: true });
    throw error;
  }
  return { staged, ...counted.result() };
}

async function unpack() {
  const extract = tar.extract();
  const feeding = pipeline(source, createGunzip(), extract);
  const reading = (async () => {
    for await (const entry of extract) {
      const { name, type } = entry.header;
      if (type === 'file' || type === 'contiguous-file') {
        const file = await stageEntry(entry);
        parentPort.postMessage({ kind: 'file', name, ...file });
      } else {
        entry.resume();
        parentPort.postMessage({ kind: 'entry', name, type });
      }
    }
  })();
  try {
    await Promise.all([feeding, reading]);
    parentPort.postMessage({ kind: 'done' });
  } catch (error) {
    extract.destroy();
    source.destroy();
    const settled = await Promise.allSettled([feeding, reading]);
    const errors = settled.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
    // The failure that says what went wrong, not the "premature close" it caused on the other side.
    const telling = errors.find((failure) => failure?.code && failure.code !== 'ERR_STREAM_PREMATURE_CLOSE') ?? error;
    parentPort.postMessage(report(telling));
  }
}

unpack();
