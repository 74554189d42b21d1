import { createHash } from 'node:crypto';
import type { DeployBase } from '@wharf/contract';
import { BASE_HASH_PREFIX, type ManifestEntry, manifestDigestText } from '@wharf/contract/upload';
import { ApiError } from '../api/apiErrors.ts';
import type { UploadCalls } from '../api/uploadCalls.ts';
import type { FolderFile } from '../folder/hashFiles.ts';
import { formatBytes, plural } from '../lib/bytes.ts';
import { codingFor } from '../lib/compress.ts';
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
 * What the server offers this deploy: the release the branch serves (to send only what changed
 * since) and the codings it takes. An older server without the route offers neither; nor does a
 * branch name it refuses, which the manifest's answer then explains in the terms of the release.
 */
export async function deployBaseOf(wharf: UploadCalls, target: ReleaseTarget): Promise<DeployBase> {
  try {
    return await wharf.deployBase(target.siteId, target.branches[0]);
  } catch (error) {
    const noRoute = error instanceof ApiError && error.status === 404 && error.code !== 'SITE_NOT_FOUND';
    const refusedBranch = error instanceof ApiError && error.code === 'VALIDATION_FAILED';
    if (noRoute || refusedBranch) return { encodings: [], release: null };
    throw error;
  }
}

/**
 * The manifest relative to the release the branch serves: the files that are new or changed
 * (told by the start of their hash), the paths gone, and the digest of the whole, by which the
 * server checks that what it makes of them is exactly this folder.
 */
function relativeManifest(base: NonNullable<DeployBase['release']>, entries: ManifestEntry[]) {
  const before = new Map(base.files);
  const now = new Set(entries.map((entry) => entry.path));
  return {
    files: entries.filter((entry) => before.get(entry.path) !== entry.hash.slice(0, BASE_HASH_PREFIX)),
    removed: base.files.map(([path]) => path).filter((path) => !now.has(path)),
    base: { release: base._id, digest: createHash('sha256').update(manifestDigestText(entries)).digest('hex') },
  };
}

/** Starts the deploy, relative to the branch's release when there is one; whole when the server cannot use that. */
async function startDeploy(wharf: UploadCalls, target: ReleaseTarget, files: FolderFile[], base: DeployBase) {
  const coding = codingFor(base.encodings);
  const entries = files.map(({ path, hash, size }) => ({ path, hash, size }));
  const whole = {
    name: target.name,
    branches: target.branches,
    ...(target.expires ? { expires: target.expires } : {}),
    ...(target.force ? { force: true } : {}),
    ...(target.draft ? { draft: true } : {}),
    source: target.source,
    files: entries,
  };
  if (base.release) {
    try {
      return await wharf.startDeploy(target.siteId, { ...whole, ...relativeManifest(base.release, entries) }, coding);
    } catch (error) {
      // The release was deleted meanwhile, or two hashes shared their start: the whole manifest settles it.
      if (!(error instanceof ApiError && error.code === 'DEPLOY_BASE_CHANGED')) throw error;
    }
  }
  return wharf.startDeploy(target.siteId, whole, coding);
}

/**
 * Sends the manifest (only what changed since the branch's release, when it has one), then only
 * the files the server lacks, compressed when the server takes it, then finalises. When the
 * server cannot deploy incrementally, answers why, so that the caller sends an archive instead.
 * `offered` is `deployBaseOf`'s answer, asked by the caller while it read the folder.
 */
export async function deployIncrementally(
  wharf: UploadCalls,
  target: ReleaseTarget,
  files: FolderFile[],
  progress: Progress,
  offered: Promise<DeployBase>,
): Promise<{ deployed: UploadOutcome } | { sendArchive: string }> {
  let started: Awaited<ReturnType<UploadCalls['startDeploy']>>;
  let base: DeployBase;
  try {
    base = await offered;
    started = await startDeploy(wharf, target, files, base);
  } catch (error) {
    const reason = reasonToSendAnArchive(error);
    if (reason) return { sendArchive: reason };
    throw error;
  }
  const { deploy } = started;
  // Files with the same content share a hash: each travels once.
  const byHash = new Map(files.map((file) => [file.hash, file]));
  const missing = deploy.missing.flatMap((hash) => byHash.get(hash) ?? []);
  const bytes = totalSize(missing);
  const task = progress.task('Uploading', { files: missing.length, bytes });
  const send = fileSender(wharf, deploy._id, codingFor(base.encodings));
  let sentBytes = started.sentBytes;
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
