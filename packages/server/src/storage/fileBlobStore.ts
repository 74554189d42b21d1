import { createHash } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import { access, mkdir, opendir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable, Transform } from 'node:stream';
import { randomString } from '../lib/ids.ts';
import {
  type BlobStore,
  type BlobToCommit,
  mustBeBlobKey,
  type StagedBlob,
  type StagingFile,
  type StoredKey,
} from './blobStore.ts';
import { makeDirectoryDurably, renameAllDurably, renameDurably, syncDirectory } from './durable.ts';
import { localFilesReader } from './localFiles.ts';
import { LocalStaging } from './staging.ts';
import { asStoreError } from './storeFailure.ts';

/** A blob in the staging area of a `FileBlobStore`, by its path there (or under its key, `placed`). */
class StagedFile implements StagedBlob {
  constructor(
    readonly stagedPath: string,
    readonly hash: string,
    readonly size: number,
    private readonly moveTo: (key: string) => string,
    /** Its content is on disk already: a commit need not flush it again. */
    readonly flushed = false,
    readonly placed = false,
  ) {}

  read() {
    return createReadStream(this.stagedPath);
  }

  async commit(key: string) {
    if (this.placed) await syncDirectory(path.dirname(this.stagedPath));
    else await renameDurably(this.stagedPath, this.moveTo(key));
  }

  discard() {
    return rm(this.stagedPath, { force: true });
  }
}

const absentAsNull = (error: NodeJS.ErrnoException) => {
  // Absent is an answer; a disk that cannot be read is a failure the caller reports.
  if (error.code === 'ENOENT') return null;
  throw asStoreError(error);
};

/** A disk or network file system that does not answer (EIO, ESTALE…) fails a read as a bucket would. */
const unavailableAsStoreError = (error: unknown): never => {
  throw asStoreError(error);
};

/** Blobs as files under a root directory; writes land atomically through a rename, flushed to disk. */
export class FileBlobStore implements BlobStore {
  /** Inside the root, so that a staged file is renamed into place on the same file system. */
  private readonly staging: LocalStaging;
  /** Directories of keys known to exist: the store never removes one. */
  private readonly madeDirectories = new Set<string>();

  constructor(private readonly root: string) {
    this.staging = new LocalStaging(path.join(root, '.staging'));
  }

  private file(key: string) {
    mustBeBlobKey(key);
    return path.join(this.root, key);
  }

  private readonly moveTo = (key: string) => this.file(key);

  async put(key: string, data: Buffer) {
    const file = this.file(key);
    await makeDirectoryDurably(path.dirname(file));
    const temporary = `${file}.${randomString(8)}.tmp`;
    try {
      await writeFile(temporary, data);
      await renameDurably(temporary, file);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async stagingFile(): Promise<StagingFile> {
    const staged = await this.staging.newName();
    return {
      path: staged,
      commit: (key) => renameDurably(staged, this.file(key)),
      discard: () => rm(staged, { force: true }),
    };
  }

  stagingArea() {
    return this.staging.area();
  }

  adopt(stagedPath: string, hash: string, size: number): StagedBlob {
    if (!this.staging.holds(stagedPath)) throw new Error(`${stagedPath} is not in the staging area`);
    return new StagedFile(stagedPath, hash, size, this.moveTo);
  }

  async commitAll(blobs: BlobToCommit[]) {
    const moves = blobs.map(({ blob, key }) => {
      if (!(blob instanceof StagedFile)) throw new Error('A blob staged by another store');
      return { from: blob.stagedPath, to: this.file(key), flushed: blob.flushed, placed: blob.placed };
    });
    await renameAllDurably(moves, this.madeDirectories);
  }

  async stageBytes(bytes: Buffer, keyOf: (hash: string) => string): Promise<StagedBlob> {
    const hash = createHash('sha256').update(bytes).digest('hex');
    const target = this.file(keyOf(hash));
    if (await this.writeNew(target, bytes)) return new StagedFile(target, hash, bytes.length, this.moveTo, true, true);
    const staged = await this.staging.write((name) => writeFile(name, bytes, { flush: true }));
    return new StagedFile(staged, hash, bytes.length, this.moveTo, true);
  }

  /**
   * Writes a file where none is, flushed; false when one is there already (a blob stored before,
   * or the same content arriving through another upload). Its name is not durable yet.
   */
  private async writeNew(target: string, bytes: Buffer) {
    const directory = path.dirname(target);
    if (!this.madeDirectories.has(directory)) {
      await makeDirectoryDurably(directory);
      this.madeDirectories.add(directory);
    }
    try {
      await writeFile(target, bytes, { flag: 'wx', flush: true });
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return false;
      await rm(target, { force: true });
      if (code === 'ENOENT') this.madeDirectories.delete(directory);
      throw error;
    }
  }

  async stage(body: Readable, through?: Transform): Promise<StagedBlob> {
    const { file, hash, size } = await this.staging.stream(body, through);
    return new StagedFile(file, hash, size, this.moveTo);
  }

  async localCopy(key: string) {
    const file = this.file(key);
    if ((await this.size(key)) === null) return null;
    return { path: file, release: async () => {} };
  }

  private readonly reader = localFilesReader((key) => this.file(key));

  readRange(key: string, start: number, end: number) {
    return this.reader.readRange(key, start, end).catch(unavailableAsStoreError);
  }

  readAll(key: string) {
    return this.reader.readAll(key).catch(unavailableAsStoreError);
  }

  async read(key: string) {
    if ((await this.size(key)) === null) return null;
    return createReadStream(this.file(key));
  }

  async size(key: string) {
    const info = await stat(this.file(key)).catch(absentAsNull);
    return info?.size ?? null;
  }

  async remove(key: string) {
    await rm(this.file(key), { force: true });
  }

  async *list(folder: string): AsyncIterable<StoredKey> {
    if (folder !== '' && !folder.endsWith('/')) throw new Error(`A folder of keys ends with /: ${folder}`);
    const directory = folder === '' ? this.root : this.file(folder.slice(0, -1));
    yield* this.walk(directory, folder);
  }

  private async *walk(directory: string, keyPrefix: string): AsyncIterable<StoredKey> {
    const entries = await opendir(directory).catch(absentAsNull);
    if (!entries) return;
    for await (const entry of entries) {
      // Dot names are the staging area's, never a key's (see `file`).
      if (entry.name.startsWith('.')) continue;
      const key = `${keyPrefix}${entry.name}`;
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) yield* this.walk(full, `${key}/`);
      else if (entry.isFile()) {
        // Gone since the directory was read: removed meanwhile, nothing to list.
        const info = await stat(full).catch(() => null);
        if (info) yield { key, modifiedAt: info.mtime };
      }
    }
  }

  removeStaleStaging(maxAgeMs: number, at = new Date()) {
    return this.staging.removeStale(maxAgeMs, at);
  }

  async reachable() {
    await mkdir(this.root, { recursive: true });
    await access(this.root, constants.R_OK | constants.W_OK);
  }
}
