import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import type { ErrorCode } from '@wharf/contract';
import type { ReleaseLimits } from '../../../config/types.ts';
import { isDiskFull } from '../../../http/diskFull.ts';
import { HttpError, httpError } from '../../../http/errors.ts';
import { malformedMultipart } from '../../../http/multipart.ts';
import { isGoodText } from '../../../http/textRule.ts';
import type { ReleaseFile } from '../../../releaseFiles/releaseFile.ts';
import { commitBlobs, type ReceivedFile } from '../blobs/blobs.ts';
import type { ReleaseParts } from '../parts.ts';
import { insertDeployFiles } from './deployRows.ts';
import { type PathClash, ReleasePaths } from './releasePaths.ts';
import { UnpackError, type UnpackedEntry, unpackInThread } from './threads/unpackThread.ts';

/** Counts bytes going through and fails past a limit (413 unless another code is given). */
export function byteLimit(limit: number, message: string, code: ErrorCode = 'RELEASE_TOO_LARGE') {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > limit ? httpError(code, message) : null, chunk);
    },
  });
}

const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;

/** The path of an archive entry inside the release, or a 400 naming the entry. */
export function entryPath(name: string): string | null {
  if (name.includes('\uFFFD') || !isGoodText(name))
    throw httpError(
      'ARCHIVE_INVALID',
      `Archive entry "${JSON.stringify(name).slice(1, -1)}" has a name that is not valid UTF-8`,
    );
  if (name.startsWith('/')) throw httpError('ARCHIVE_INVALID', `Archive entry "${name}" has an absolute path`);
  const segments = name.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) throw httpError('ARCHIVE_INVALID', `Archive entry "${name}" leaves the release folder`);
  return segments.length > 0 ? segments.join('/') : null;
}

function archiveError(error: unknown): Error {
  if (error instanceof UnpackError && error.code === 'RELEASE_TOO_LARGE')
    return httpError('RELEASE_TOO_LARGE', error.message);
  if (error instanceof HttpError || isDiskFull(error)) return error as Error;
  const malformed = malformedMultipart(error);
  if (malformed) return malformed;
  const code = (error as { code?: string }).code ?? '';
  if (code.startsWith('Z_') || /tar|header|gzip|unexpected end/i.test((error as Error).message ?? '')) {
    return httpError('ARCHIVE_INVALID', 'The file is not a valid tar.gz archive');
  }
  return error as Error;
}

/**
 * Of the failures of the two halves (reading the archive, storing its files), the one that says
 * what went wrong: a full disk or a refusal, not the "premature close" it caused on the other side.
 */
function telling(errors: unknown[]) {
  return (
    errors.find(isDiskFull) ??
    errors.find((error) => error instanceof HttpError || (error instanceof UnpackError && error.code !== null)) ??
    errors.find((error) => malformedMultipart(error) !== null) ??
    errors[0]
  );
}

function refuseClash(name: string, clash: PathClash | null) {
  if (clash?.kind === 'duplicate') throw httpError('ARCHIVE_INVALID', `Archive entry "${name}" appears twice`);
  if (clash) {
    throw httpError('ARCHIVE_INVALID', `Archive entry "${name}": "${clash.name}" is both a file and a folder`);
  }
}

/** Files received are taken into the store this many at a time: one step of flushes and one transaction each. */
export const FILES_PER_COMMIT = 512;

/**
 * Unpacks an uploaded tar.gz into the blob store as it streams in, recording each file against
 * the deploy so the garbage collection leaves it alone. Only regular files and folders are taken.
 * A worker thread gunzips, reads and hashes the archive; this thread checks each entry and
 * records the files in batches, so the process keeps answering requests while a large archive arrives.
 */
export async function receiveArchive(
  parts: ReleaseParts,
  deploy: { id: string; orgId: string },
  source: Readable,
  limits: ReleaseLimits,
) {
  // The caller may already be listening to the bytes (to fingerprint them): nothing may flow by
  // before the thread is there to take it.
  source.pause();
  const files: ReleaseFile[] = [];
  const paths = new ReleasePaths();
  let pending: ReceivedFile[] = [];
  const commitPending = async () => {
    const batch = pending;
    pending = [];
    await recordDeployFiles(parts, deploy, batch);
  };
  const takeEntry = async (entry: UnpackedEntry) => {
    const { name } = entry;
    if (entry.kind === 'entry') {
      if (entry.type !== 'directory') {
        throw httpError(
          'ARCHIVE_INVALID',
          `Archive entry "${name}" is a ${entry.type}; only files and folders are allowed`,
        );
      }
      const path = entryPath(name);
      if (path) refuseClash(name, paths.addFolder(path));
      return;
    }
    const blob = parts.blobs.adopt(entry.staged, entry.hash, entry.size);
    try {
      const path = entryPath(name);
      if (!path) throw httpError('ARCHIVE_INVALID', `Archive entry "${name}" has no file name`);
      if (paths.fileCount >= limits.releaseFiles) {
        throw httpError('RELEASE_TOO_LARGE', `The release has more than ${limits.releaseFiles} files`);
      }
      refuseClash(name, paths.addFile(path));
      pending.push({ blob, path });
      files.push({ path, hash: blob.hash, size: blob.size });
    } catch (error) {
      await blob.discard();
      throw error;
    }
    if (pending.length >= FILES_PER_COMMIT) await commitPending();
  };
  try {
    await unpackInThread(
      source,
      byteLimit(limits.archiveBytes, `The archive is larger than ${megabytes(limits.archiveBytes)}`),
      { stagingDir: await parts.blobs.stagingArea(), releaseBytes: limits.releaseBytes },
      takeEntry,
      (entry) => parts.blobs.adopt(entry.staged, entry.hash, entry.size).discard(),
    );
    await commitPending();
  } catch (error) {
    source.destroy();
    await Promise.all(pending.map(({ blob }) => blob.discard()));
    throw archiveError(telling(error instanceof AggregateError ? error.errors : [error]));
  }
  if (files.length === 0) throw httpError('ARCHIVE_INVALID', 'The archive holds no files');
  return files;
}

/**
 * Records received files against their deploy, then takes them into the store. The deploy's rows
 * come first: from then on the garbage collection leaves the files alone.
 */
export async function recordDeployFiles(
  parts: ReleaseParts,
  deploy: { id: string; orgId: string },
  received: ReceivedFile[],
) {
  try {
    const files = received.map(({ blob, path }) => ({ path, hash: blob.hash, size: blob.size }));
    await insertDeployFiles(parts.db, deploy.id, files);
  } catch (error) {
    await Promise.all(received.map(({ blob }) => blob.discard()));
    throw error;
  }
  await commitBlobs(parts, received, deploy.orgId);
}
