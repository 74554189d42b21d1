import path from 'node:path';
import { type Readable, type Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Worker } from 'node:worker_threads';
import { stopThread } from '../../../../lib/stopThread.ts';
import { SERVER_PACKAGE_DIR } from '../../../../packageDir.ts';

/** An entry of the archive as the thread reports it: a file already staged and hashed, or anything else. */
export type UnpackedEntry =
  | { kind: 'file'; name: string; staged: string; hash: string; size: number }
  | { kind: 'entry'; name: string; type: string };

type ThreadMessage =
  | UnpackedEntry
  | { kind: 'taken'; chunks: number }
  | { kind: 'done' }
  | { kind: 'error'; code: string | null; message: string };

const UNPACK_SCRIPT = path.join(SERVER_PACKAGE_DIR, 'src/modules/releases/upload/threads/unpackArchive.mjs');
/** Chunks of the upload on their way to the thread, at most: about 1 MB with the parser's 64 KiB. */
const WINDOW = 16;

/** A failure the thread reported, with its code (`RELEASE_TOO_LARGE`, `ENOSPC`, `Z_DATA_ERROR`…). */
export class UnpackError extends Error {
  constructor(
    message: string,
    readonly code: string | null,
  ) {
    super(message);
  }
}

/**
 * Sends the archive's bytes to a worker thread that gunzips and reads it and stages each file,
 * and hands every entry, in order, to `onEntry` (which commits or refuses it). The upload is
 * held back while the thread is behind, so memory stays bounded whatever the archive's size.
 * Rejects with every failure seen (the caller picks the telling one); a file staged but not
 * handed over when something failed is discarded with `discard`.
 */
export async function unpackInThread(
  source: Readable,
  limit: Transform,
  options: { stagingDir: string; releaseBytes: number },
  onEntry: (entry: UnpackedEntry) => Promise<void>,
  discard: (entry: UnpackedEntry & { kind: 'file' }) => Promise<void>,
): Promise<void> {
  // Small heaps: the thread holds only a few chunks at a time, and a heap left to grow keeps the
  // upload's transferred chunks alive until it collects (measured: 30 MB more at peak without).
  const thread = new Worker(UNPACK_SCRIPT, {
    workerData: options,
    resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 32 },
  });
  const failures: unknown[] = [];
  let outstanding = 0;
  let heldBack: (() => void) | null = null;
  let handling = Promise.resolve();
  let finish: () => void;
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const fail = (error: unknown) => {
    failures.push(error);
    thread.postMessage({ kind: 'stop' });
    source.destroy();
  };

  thread.on('message', (message: ThreadMessage) => {
    if (message.kind === 'taken') {
      outstanding -= message.chunks;
      if (heldBack && outstanding < WINDOW) {
        const release = heldBack;
        heldBack = null;
        release();
      }
    } else if (message.kind === 'done' || message.kind === 'error') {
      if (message.kind === 'error' && message.code !== 'STOPPED') fail(new UnpackError(message.message, message.code));
      handling = handling.then(finish);
    } else {
      // In order, one at a time; after a failure, what still arrives is only cleared away.
      handling = handling.then(() =>
        failures.length > 0
          ? message.kind === 'file'
            ? discard(message)
            : undefined
          : onEntry(message).catch(async (error) => {
              fail(error);
              if (message.kind === 'file') await discard(message);
            }),
      );
    }
  });
  thread.on('error', (error) => {
    fail(error);
    finish();
  });

  const toThread = new Writable({
    write(chunk: Buffer, _encoding, done) {
      // A copy of just these bytes, moved rather than copied again into the thread.
      const bytes = new Uint8Array(chunk);
      thread.postMessage({ kind: 'chunk', bytes }, [bytes.buffer]);
      outstanding++;
      if (outstanding < WINDOW) done();
      else heldBack = () => done();
    },
    final(done) {
      thread.postMessage({ kind: 'end' });
      done();
    },
  });
  const feeding = pipeline(source, limit, toThread).catch((error) => {
    if (failures.length === 0) fail(error);
    else failures.push(error);
  });
  await Promise.all([feeding, finished]);
  await handling;
  await stopThread(thread);
  if (failures.length > 0) throw new AggregateError(failures);
}
