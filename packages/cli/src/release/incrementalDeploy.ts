import { ApiError } from '../api/apiErrors.ts';
import type { WharfApi } from '../api/wharfApi.ts';
import type { FolderFile } from '../folder/hashFiles.ts';
import { formatBytes, plural } from '../lib/bytes.ts';
import { inParallel } from '../lib/inParallel.ts';
import type { Progress } from '../output/progress.ts';
import { batchesOf, fileSender } from './fileBatches.ts';
import { type ReleaseTarget, totalSize, type UploadOutcome } from './outcome.ts';

// Enough requests in flight to keep the server's disk and the connection busy while the next
// batch is read, few enough that a server on a small machine is not swamped.
const UPLOAD_CONCURRENCY = 4;

/**
 * Why the server cannot take this deploy incrementally, or null when the failure is another.
 * A 404 that is not about the site: a server without the deploy route (the archive upload then
 * tells an unknown site apart for sure). A 413 of the body itself: a manifest of more files than
 * the server's request size allows.
 */
function reasonToSendAnArchive(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  if (error.status === 404 && error.code !== 'SITE_NOT_FOUND') return 'This server has no incremental deploys';
  if (error.code === 'BODY_TOO_LARGE') return 'This server refused a manifest this long';
  return null;
}

/**
 * Sends the manifest, then only the files the server lacks, then finalises. When the server
 * cannot deploy incrementally, answers why, so that the caller sends an archive instead.
 */
export async function deployIncrementally(
  wharf: WharfApi,
  target: ReleaseTarget,
  files: FolderFile[],
  progress: Progress,
): Promise<{ deployed: UploadOutcome } | { sendArchive: string }> {
  const manifest = {
    name: target.name,
    branches: target.branches,
    ...(target.expires ? { expires: target.expires } : {}),
    ...(target.force ? { force: true } : {}),
    files: files.map(({ path, hash, size }) => ({ path, hash, size })),
  };
  let deploy: Awaited<ReturnType<WharfApi['startDeploy']>>;
  try {
    deploy = await wharf.startDeploy(target.siteId, manifest);
  } catch (error) {
    const reason = reasonToSendAnArchive(error);
    if (reason) return { sendArchive: reason };
    throw error;
  }
  // Files with the same content share a hash: each travels once.
  const byHash = new Map(files.map((file) => [file.hash, file]));
  const missing = deploy.missing.flatMap((hash) => byHash.get(hash) ?? []);
  const bytes = totalSize(missing);
  const task = progress.task('Uploading', { files: missing.length, bytes });
  const send = fileSender(wharf, deploy._id);
  let sentBytes = Buffer.byteLength(JSON.stringify(manifest));
  await inParallel(batchesOf(missing), UPLOAD_CONCURRENCY, async (batch) => {
    sentBytes += await send(batch);
    task.advance(batch.length, totalSize(batch));
  });
  const known = byHash.size - missing.length;
  task.finish(
    `Uploaded ${plural(missing.length, 'file')} (${formatBytes(bytes)})${known > 0 ? `; the server already had ${plural(known, 'other')}` : ''}`,
  );
  progress.note('Finalizing the release');
  const release = await wharf.finalizeDeploy(deploy._id);
  return {
    deployed: {
      release,
      method: 'incremental',
      uploaded: { files: missing.length, bytes },
      sentBytes,
    },
  };
}
