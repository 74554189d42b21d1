import { availableParallelism } from 'node:os';
import path from 'node:path';
import { lockingRows } from '../../../db/rowLocks.ts';
import type { Db, Executor } from '../../../db/schema.ts';
import { enqueueJob, type Job } from '../../../jobs/queue.ts';
import type { JobOutcome, JobSender } from '../../../jobs/runner.ts';
import { readJson } from '../../../lib/json.ts';
import { SERVER_PACKAGE_DIR } from '../../../packageDir.ts';
import { blobKey } from '../../../releaseFiles/blobKeys.ts';
import type { BlobStore, StagingFile } from '../../../storage/blobStore.ts';
import { whileNoBlobIsDeleted } from './blobLock.ts';
import { ThreadPool } from './threads/threadPool.ts';

/** What a compression thread answers: each variant's size in bytes. */
interface Compressed {
  id: number;
  error?: string;
  sizes: { br: number; gzip: number };
}

// Beside the sources, whether they run as they are or bundled into dist/.
const COMPRESS_SCRIPT = path.join(SERVER_PACKAGE_DIR, 'src/modules/releases/blobs/threads/compressVariants.mjs');

/**
 * Compression threads: one fewer than the CPUs (the main thread keeps one for requests), at least
 * one, or `WHARF_COMPRESSION_THREADS`.
 */
export function compressionThreads(configured: number | null) {
  return configured ?? Math.max(1, availableParallelism() - 1);
}

export function compressionPool(threads: number) {
  return new ThreadPool<Compressed>(COMPRESS_SCRIPT, threads);
}

/**
 * A job compresses a few blobs: small enough to finish well within the job runner's lease (a job
 * that outlives it may be taken again), large enough that the queue stays short.
 */
const JOB_BLOBS = 32;
const JOB_BYTES = 1024 * 1024;

/**
 * Queues the variants still to make of a deploy's blobs, in the caller's transaction (the release's):
 * they are made if the release commits, and a crash before they are leaves the jobs to resume.
 */
export async function enqueueVariants(trx: Executor, deployId: string) {
  // From the few blobs still pending (a partial index), each looked up in the deploy: not from
  // the deploy's thousands of files, each looked up among the blobs.
  const pending = await trx
    .selectFrom('blobs')
    .select(['hash', 'size'])
    .where('variants_pending', '=', 1)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('deploy_files')
          .select('deploy_files.hash')
          .where('deploy_files.deploy_id', '=', deployId)
          .whereRef('deploy_files.hash', '=', 'blobs.hash'),
      ),
    )
    .execute();
  let batch: string[] = [];
  let batchBytes = 0;
  const flush = async () => {
    if (batch.length > 0) await enqueueJob(trx, { kind: 'variants', payload: { hashes: batch } });
    batch = [];
    batchBytes = 0;
  };
  for (const blob of pending) {
    batch.push(blob.hash);
    batchBytes += Number(blob.size);
    if (batch.length >= JOB_BLOBS || batchBytes >= JOB_BYTES) await flush();
  }
  await flush();
}

interface VariantParts {
  db: Db;
  blobs: BlobStore;
  pool: ThreadPool<Compressed>;
}

/**
 * Makes the brotli and gzip variants of one blob in a thread, keeps those smaller than the file,
 * and records their sizes: from then on the edge serves them. A blob collected meanwhile, or done
 * by another job, is left as it is.
 */
async function makeVariants(parts: VariantParts, hash: string) {
  const blob = await parts.db
    .selectFrom('blobs')
    .select(['size', 'variants_pending'])
    .where('hash', '=', hash)
    .executeTakeFirst();
  if (!blob || Number(blob.variants_pending) !== 1) return;
  const size = Number(blob.size);
  // The thread reads the file by its path: a bucket's blob is copied here first.
  const input = await parts.blobs.localCopy(blobKey(hash));
  if (!input) throw new Error(`Blob ${hash} is missing from the store`);
  const outputs: Record<'br' | 'gzip', StagingFile> = {
    br: await parts.blobs.stagingFile(),
    gzip: await parts.blobs.stagingFile(),
  };
  try {
    const { sizes } = await parts.pool.run({
      input: input.path,
      size,
      outputs: { br: outputs.br.path, gzip: outputs.gzip.path },
    });
    await storeVariants(parts, hash, {
      br: sizes.br < size ? { file: outputs.br, size: sizes.br } : null,
      gzip: sizes.gzip < size ? { file: outputs.gzip, size: sizes.gzip } : null,
    });
  } finally {
    await Promise.allSettled([outputs.br.discard(), outputs.gzip.discard(), input.release()]);
  }
}

type Kept = { file: StagingFile; size: number } | null;

/**
 * Stores the variants kept and records their sizes, under the blob lock and the blob's row: a
 * blob the collection took (or marked dead) while it was compressed gets none, and files once
 * stored are never deleted by a collection that decided before they were (see blobLock.ts).
 */
async function storeVariants(parts: VariantParts, hash: string, kept: { br: Kept; gzip: Kept }) {
  await whileNoBlobIsDeleted(parts.db, async (trx) => {
    const row = await lockingRows(
      trx,
      trx
        .selectFrom('blobs')
        .select('hash')
        .where('hash', '=', hash)
        .where('variants_pending', '=', 1)
        .where('dead', '=', 0),
      'update',
    ).executeTakeFirst();
    if (!row) return;
    if (kept.br) await kept.br.file.commit(blobKey(hash, 'br'));
    if (kept.gzip) await kept.gzip.file.commit(blobKey(hash, 'gzip'));
    await trx
      .updateTable('blobs')
      .set({ br_size: kept.br?.size ?? null, gz_size: kept.gzip?.size ?? null, variants_pending: 0 })
      .where('hash', '=', hash)
      .execute();
  });
}

/** The job runner's sender of `variants` jobs; a failure is tried again with the queue's backoff. */
export function variantsSender(parts: VariantParts): JobSender {
  return async (job: Job): Promise<JobOutcome> => {
    const { hashes } = readJson<{ hashes: string[] }>(job.payload);
    try {
      for (const hash of hashes) await makeVariants(parts, hash);
      return { ok: true };
    } catch (error) {
      return { ok: false, final: false, error: (error as Error).message };
    }
  };
}
