import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { UploadCalls } from '../api/uploadCalls.ts';
import type { RequestBody } from '../api/wharfApi.ts';
import type { FolderFile } from '../folder/hashFiles.ts';
import { formatBytes, plural } from '../lib/bytes.ts';
import type { Progress, Task } from '../output/progress.ts';
import { type ReleaseTarget, totalSize, type UploadOutcome } from './outcome.ts';
import { packFolder } from './packFolder.ts';

/**
 * multipart/form-data written by hand, because FormData wants the whole file as a Blob: the
 * fields first (`name`, `branches` once per branch, `expires`), then the archive as it is packed.
 */
async function* multipartBody(boundary: string, fields: [string, string][], archive: Readable) {
  try {
    for (const [name, value] of fields) {
      yield Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
    }
    yield Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="release.tar.gz"\r\ncontent-type: application/gzip\r\n\r\n`,
    );
    for await (const chunk of archive) yield chunk as Buffer;
    yield Buffer.from(`\r\n--${boundary}--\r\n`);
  } finally {
    // The server may answer (a refused token) before it read everything: stop reading the disk.
    archive.destroy();
  }
}

async function* counting(chunks: AsyncIterable<Buffer>, count: (bytes: number) => void) {
  for await (const chunk of chunks) {
    count(chunk.length);
    yield chunk;
  }
}

/** The upload of spec.md: the whole folder as one tar.gz, for servers without incremental deploys. */
export async function uploadArchive(
  wharf: UploadCalls,
  target: ReleaseTarget,
  files: FolderFile[],
  progress: Progress,
): Promise<UploadOutcome> {
  const bytes = totalSize(files);
  let sentBytes = 0;
  let task: Task | undefined;
  const fields: [string, string][] = [
    ['name', target.name],
    ...target.branches.map((b): [string, string] => ['branches', b]),
    ...(target.expires ? [['expires', target.expires] as [string, string]] : []),
    ...(target.force ? [['force', 'true'] as [string, string]] : []),
    ...(target.draft ? [['draft', 'true'] as [string, string]] : []),
    ['source', JSON.stringify(target.source)],
  ];
  // Each attempt packs the folder again, into the same bytes; a retry restarts the bar and the count.
  const packedAt = new Date();
  const body = (): RequestBody => {
    sentBytes = 0;
    task = progress.task('Uploading archive', { files: files.length, bytes });
    const boundary = `wharf-${randomBytes(16).toString('hex')}`;
    const archive = packFolder(files, packedAt, (file) => task?.advance(1, file.size));
    return {
      content: counting(multipartBody(boundary, fields, archive), (n) => {
        sentBytes += n;
      }),
      contentType: `multipart/form-data; boundary=${boundary}`,
    };
  };
  const release = await wharf.uploadRelease(target.siteId, body);
  task?.finish(
    `Uploaded ${plural(files.length, 'file')} (${formatBytes(bytes)}) as a ${formatBytes(sentBytes)} archive`,
  );
  return { release, method: 'archive', uploaded: { files: files.length, bytes }, sentBytes };
}
