import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-stream';
import { isDiskFull } from '../../../http/diskFull.ts';
import { HttpError, httpError } from '../../../http/errors.ts';
import { blobKey } from '../../../releaseFiles/blobKeys.ts';
import type { StagedBlob } from '../../../storage/blobStore.ts';
import { commitBlobs } from '../blobs/blobs.ts';
import { removeUnusedBlobs } from '../collect/gc.ts';
import type { ReleaseParts } from '../parts.ts';
import { byteLimit, FILES_PER_COMMIT } from './archive.ts';

/** An open deploy and the organization its files are recorded for. */
export interface OpenDeploy {
  id: string;
  orgId: string;
}

/** Content received for a deploy under the hash the client named it by. */
interface NamedBlob {
  name: string;
  blob: StagedBlob;
}

const SHA256 = /^[0-9a-f]{64}$/;

/** The manifest's entry for each of these hashes (the first path, when several files share one). */
async function announcedFiles(parts: ReleaseParts, deployId: string, hashes: string[]) {
  const rows = await parts.db
    .selectFrom('deploy_files')
    .select(['hash', 'path', 'size'])
    .where('deploy_id', '=', deployId)
    .where('hash', 'in', hashes)
    .execute();
  const byHash = new Map<string, { path: string; size: number }>();
  for (const row of rows) if (!byHash.has(row.hash)) byHash.set(row.hash, { path: row.path, size: Number(row.size) });
  return byHash;
}

/**
 * Takes received files into the store once each is checked against the deploy's manifest: a
 * hash the manifest does not hold, or bytes that do not hash to their name, refuse the whole lot.
 */
async function commitReceived(parts: ReleaseParts, deploy: OpenDeploy, received: NamedBlob[]) {
  if (received.length === 0) return;
  try {
    const announced = await announcedFiles(parts, deploy.id, [...new Set(received.map(({ name }) => name))]);
    const files = received.map(({ name, blob }) => {
      const file = announced.get(name);
      if (!file) throw httpError('DEPLOY_FILE_UNKNOWN', `The deploy has no file with the hash ${name}`);
      if (blob.hash !== name || blob.size !== file.size)
        throw httpError('DEPLOY_HASH_MISMATCH', `The uploaded bytes of ${file.path} do not match its hash`);
      return { blob, path: file.path };
    });
    await commitBlobs(parts, files, deploy.orgId);
  } catch (error) {
    await Promise.all(received.map(({ blob }) => blob.discard()));
    throw error;
  }
  // Another request of the deploy may have filled the disk meanwhile, dropping the deploy: these go too.
  const stillOpen = await parts.db.selectFrom('deploys').select('id').where('id', '=', deploy.id).executeTakeFirst();
  if (!stillOpen) {
    await removeUnusedBlobs(
      parts,
      received.map(({ name }) => name),
    );
    throw httpError('DEPLOY_NOT_FOUND', 'The deploy was dropped while these files arrived; start a new one');
  }
}

/** Receives one missing file; bytes that do not hash to the announced value are refused. */
export async function receiveDeployFile(parts: ReleaseParts, deploy: OpenDeploy, hash: string, body: Readable) {
  const file = (await announcedFiles(parts, deploy.id, [hash])).get(hash);
  if (!file) throw httpError('DEPLOY_FILE_UNKNOWN', 'The deploy has no file with this hash');
  const blob = await parts.blobs.stage(
    body,
    byteLimit(file.size, 'The file is larger than announced', 'DEPLOY_HASH_MISMATCH'),
  );
  await commitReceived(parts, deploy, [{ name: hash, blob }]);
}

/** Of the failures of the two halves (reading the tar, storing its files), the one that says what went wrong. */
function telling(errors: unknown[]) {
  const told = errors.find(isDiskFull) ?? errors.find((error) => error instanceof HttpError) ?? errors[0];
  if (told instanceof HttpError || isDiskFull(told)) return told;
  if (/tar|header|unexpected end|size mismatch/i.test((told as Error)?.message ?? ''))
    return httpError('ARCHIVE_INVALID', 'The body is not a valid tar of files named by their sha256');
  return told;
}

/** Entries up to this size are read into memory and written side by side; larger ones stream one at a time. */
const SMALL_ENTRY_BYTES = 1024 * 1024;
/** Bytes read but not yet written to the staging area, at most: the tar is not read further meanwhile. */
const BUFFERED_BYTES = 16 * 1024 * 1024;

/**
 * Stages a tar's entries: a small one is read into memory and written (and flushed) while the
 * next ones arrive, many at a time, as the disk is fastest at them; a large one streams.
 */
class EntryStager {
  private writing: Promise<NamedBlob>[] = [];
  private buffered = 0;
  /** Bytes staged since the last `take`: a store that keeps them in memory until the commit (a bucket's) holds them all. */
  private staged = 0;

  constructor(private readonly parts: ReleaseParts) {}

  /** Keeps a write in flight; its failure is seen by `take`, never left unhandled meanwhile. */
  private track(writing: Promise<NamedBlob>) {
    writing.catch(() => undefined);
    this.writing.push(writing);
    return writing;
  }

  async add(name: string, size: number, entry: Readable) {
    if (size > SMALL_ENTRY_BYTES) {
      await this.track(this.parts.blobs.stage(entry).then((blob) => ({ name, blob })));
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    this.buffered += bytes.length;
    this.staged += bytes.length;
    this.writing.push(
      this.parts.blobs
        .stageBytes(bytes, (hash) => blobKey(hash))
        .then((blob) => {
          this.buffered -= bytes.length;
          return { name, blob };
        }),
    );
    if (this.buffered > BUFFERED_BYTES) await Promise.all(this.writing);
  }

  /** The entries staged so far, once all are on disk; none are left when one failed. */
  async take(): Promise<NamedBlob[]> {
    const writing = this.writing;
    this.writing = [];
    this.staged = 0;
    const settled = await Promise.allSettled(writing);
    const staged = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const failed = settled.find((result) => result.status === 'rejected');
    if (!failed) return staged;
    await Promise.all(staged.map(({ blob }) => blob.discard()));
    throw failed.reason;
  }

  /** Drops whatever was staged: the request failed. */
  async discard() {
    await this.take().then(
      (staged) => Promise.all(staged.map(({ blob }) => blob.discard())),
      () => undefined,
    );
  }

  /** Whether enough is staged to take it into the store now: a batch of files, or of bytes. */
  get full() {
    return this.writing.length >= FILES_PER_COMMIT || this.staged >= BUFFERED_BYTES;
  }
}

/**
 * Receives several missing files of a deploy in one uncompressed tar whose entries are named by
 * their sha256: each is staged and hashed as it streams in, and they are taken into the store a
 * batch at a time (one flush, one transaction), which is what makes a fresh deploy of thousands
 * of small files fast. Files of a batch already taken stay, as single uploads would.
 */
export async function receiveDeployFiles(parts: ReleaseParts, deploy: OpenDeploy, body: Readable) {
  const extract = tar.extract();
  const limit = parts.config.limits.archiveBytes;
  const feeding = pipeline(body, byteLimit(limit, 'The request is larger than an archive may be'), extract);
  const stager = new EntryStager(parts);
  const reading = (async () => {
    for await (const entry of extract) {
      const { name, type, size } = entry.header;
      if (type !== 'file' || !SHA256.test(name)) {
        entry.resume();
        throw httpError('ARCHIVE_INVALID', `Entry "${name}" is not a file named by its sha256`);
      }
      // As a Node stream from the start: an entry of tar-stream cut short before its reader
      // attached (the stager awaits a staging name first) never tells a Node pipeline it failed,
      // and the request would wait for it forever.
      await stager.add(name, size ?? 0, Readable.from(entry, { objectMode: false }));
      if (stager.full) await commitReceived(parts, deploy, await stager.take());
    }
    await commitReceived(parts, deploy, await stager.take());
  })();
  const settled = await Promise.allSettled([reading, feeding]);
  const errors = settled.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
  if (errors.length === 0) return;
  extract.destroy();
  body.destroy();
  await stager.discard();
  throw telling(errors);
}
