import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import type { ReleaseLimits } from '../config.ts';
import { badRequest, HttpError, tooLarge } from '../http/errors.ts';
import type { WharfApp } from '../wharfApp.ts';
import { commitBlob, ingest } from './blobs.ts';
import type { ReleaseFile } from './createRelease.ts';

/** Counts bytes going through and fails with 413 past a limit. */
export function byteLimit(limit: number, message: string) {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > limit ? tooLarge(message) : null, chunk);
    },
  });
}

const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;

/** The path of an archive entry inside the release, or a 400 naming the entry. */
export function entryPath(name: string): string | null {
  if (name.includes('\uFFFD')) throw badRequest(`Archive entry "${name}" has a name that is not valid UTF-8`);
  if (name.startsWith('/')) throw badRequest(`Archive entry "${name}" has an absolute path`);
  const segments = name.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) throw badRequest(`Archive entry "${name}" leaves the release folder`);
  return segments.length > 0 ? segments.join('/') : null;
}

function archiveError(error: unknown): Error {
  if (error instanceof HttpError) return error;
  const code = (error as { code?: string }).code ?? '';
  if (code.startsWith('Z_') || /tar|header|gzip|unexpected end/i.test((error as Error).message ?? '')) {
    return badRequest('The file is not a valid tar.gz archive');
  }
  return error as Error;
}

/**
 * Unpacks an uploaded tar.gz into the blob store as it streams in, recording each file against
 * the deploy so the garbage collection leaves it alone. Only regular files and folders are taken.
 */
export async function receiveArchive(app: WharfApp, deployId: string, source: Readable, limits: ReleaseLimits) {
  const files = new Map<string, ReleaseFile>();
  let totalBytes = 0;
  const extract = tar.extract();
  const feeding = pipeline(
    source,
    byteLimit(limits.archiveBytes, `The archive is larger than ${megabytes(limits.archiveBytes)}`),
    createGunzip(),
    extract,
  );
  const consuming = (async () => {
    for await (const entry of extract) {
      const { name, type } = entry.header;
      if (type === 'directory') {
        entry.resume();
        continue;
      }
      if (type !== 'file' && type !== 'contiguous-file') {
        throw badRequest(`Archive entry "${name}" is a ${type}; only files and folders are allowed`);
      }
      const path = entryPath(name);
      if (!path) throw badRequest(`Archive entry "${name}" has no file name`);
      if (!files.has(path) && files.size >= limits.releaseFiles) {
        throw tooLarge(`The release has more than ${limits.releaseFiles} files`);
      }
      const remaining = limits.releaseBytes - totalBytes;
      const message = `The release is larger than ${megabytes(limits.releaseBytes)} uncompressed`;
      const file = await ingest(app, entry as unknown as Readable, byteLimit(remaining, message));
      totalBytes += file.size;
      await app.db
        .insertInto('deploy_files')
        .values({ deploy_id: deployId, path, hash: file.hash, size: file.size })
        .onConflict((oc) => oc.columns(['deploy_id', 'path']).doUpdateSet({ hash: file.hash, size: file.size }))
        .execute();
      await commitBlob(app, file, path);
      files.set(path, { path, hash: file.hash, size: file.size });
    }
  })();
  try {
    await Promise.all([feeding, consuming]);
  } catch (error) {
    extract.destroy();
    source.destroy();
    await Promise.allSettled([feeding, consuming]);
    throw archiveError(error);
  }
  if (files.size === 0) throw badRequest('The archive holds no files');
  return [...files.values()];
}
