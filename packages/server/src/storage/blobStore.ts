import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, opendir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomString } from '../lib/ids.ts';
import { makeDirectoryDurably, renameAllDurably, renameDurably, syncDirectory } from './durable.ts';

/** Content written to the store's staging area, not under a key yet, or under its key but not recorded. */
export interface StagedBlob {
  /** sha256 of the content, in hex. */
  readonly hash: string;
  readonly size: number;
  /**
   * Written straight under its key, where nothing was (see `stageBytes`): a commit only makes
   * its name durable, and a discard removes it from there.
   */
  readonly placed: boolean;
  /** Reads the content again (to compress it, say). */
  read(): Readable;
  /** Moves it under a key; it is on disk, whole, before this resolves. */
  commit(key: string): Promise<void>;
  discard(): Promise<void>;
}

/** A staged blob and the key it goes under. */
export interface BlobToCommit {
  blob: StagedBlob;
  key: string;
}

/** A key the store holds, and when its content was last written. */
export interface StoredKey {
  readonly key: string;
  readonly modifiedAt: Date;
}

/** A staging file another writer (a worker thread) fills by its path; then committed or discarded. */
export interface StagingFile {
  readonly path: string;
  /** Moves it under a key; it is on disk, whole, before this resolves. */
  commit(key: string): Promise<void>;
  discard(): Promise<void>;
}

/**
 * Where Wharf keeps files (logos, release blobs): a directory now, an S3-compatible bucket later.
 * Every write is durable before it resolves, so a database commit that follows may rely on it.
 */
export interface BlobStore {
  put(key: string, data: Buffer): Promise<void>;
  /**
   * Writes a stream to the staging area while hashing it, through `through` when given (a size
   * limit, a compressor). A failed write leaves nothing behind.
   */
  stage(body: Readable, through?: Transform): Promise<StagedBlob>;
  /**
   * Writes bytes held in memory, flushed to disk: straight under their key (`keyOf` their hash)
   * when nothing is there yet, which spares the commit a rename, else in the staging area. Many
   * such writes run side by side (a tar of small files), where `stage` takes one stream at a time.
   */
  stageBytes(bytes: Buffer, keyOf: (hash: string) => string): Promise<StagedBlob>;
  /** A new, empty name in the staging area, for content written elsewhere than through `stage`. */
  stagingFile(): Promise<StagingFile>;
  /** The staging area, created if need be, for a writer outside this store that names its own files. */
  stagingArea(): Promise<string>;
  /** A file such a writer staged, hashed and counted by it, taken back as if staged here. */
  adopt(stagedPath: string, hash: string, size: number): StagedBlob;
  /**
   * Commits many staged blobs of this store at once, each under its key: cheaper than one by one
   * (a release brings thousands). Every one is on disk, whole, before this resolves.
   */
  commitAll(blobs: BlobToCommit[]): Promise<void>;
  /** The local path of a blob, for readers outside this store (worker threads, the edge). */
  pathOf(key: string): string;
  /** Reads a byte range (inclusive end) or the whole blob. */
  readRange?(key: string, start: number, end: number): Promise<Readable | null>;
  read(key: string): Promise<Readable | null>;
  size(key: string): Promise<number | null>;
  remove(key: string): Promise<void>;
  /**
   * Every key under a folder of keys (`files/`, `logos/`; '' for all), in no particular order,
   * read as it goes: a store may hold millions. Staged content is never listed.
   */
  list(folder: string): AsyncIterable<StoredKey>;
  /** Removes staged content older than `maxAgeMs`: uploads that a crash cut off. */
  removeStaleStaging(maxAgeMs: number, at?: Date): Promise<void>;
}

/** Counts and hashes the bytes going through. */
class Digest extends Transform {
  private readonly hash = createHash('sha256');
  size = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null, data?: Buffer) => void) {
    this.hash.update(chunk);
    this.size += chunk.length;
    done(null, chunk);
  }

  hex() {
    return this.hash.digest('hex');
  }
}

/** A blob in the staging area of a `FileBlobStore`, by its path there. */
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

/** Blobs as files under a root directory; writes land atomically through a rename, flushed to disk. */
export class FileBlobStore implements BlobStore {
  /** Inside the root, so that a staged file is renamed into place on the same file system. */
  private readonly stagingDir: string;

  /** Directories of keys known to exist: the store never removes one. */
  private readonly madeDirectories = new Set<string>();

  constructor(private readonly root: string) {
    this.stagingDir = path.join(root, '.staging');
  }

  private file(key: string) {
    // No segment may start with a dot: that keeps keys off the staging area and out of `..`.
    if (!/^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/.test(key)) {
      throw new Error(`Bad blob key ${key}`);
    }
    return path.join(this.root, key);
  }

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

  /** Whether the staging area is known to exist: thousands of files are staged a second. */
  private stagingMade = false;

  private async newStagingName() {
    if (!this.stagingMade) {
      await mkdir(this.stagingDir, { recursive: true });
      this.stagingMade = true;
    }
    return path.join(this.stagingDir, `${Date.now().toString(36)}-${randomString(10)}`);
  }

  /** Writes a new staging file with `write`; a staging area removed meanwhile (by hand) is made again. */
  private async writeStaged(write: (staged: string) => Promise<void>) {
    for (let attempt = 1; ; attempt++) {
      const staged = await this.newStagingName();
      try {
        await write(staged);
        return staged;
      } catch (error) {
        await rm(staged, { force: true });
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt > 1) throw error;
        this.stagingMade = false;
      }
    }
  }

  async stagingFile(): Promise<StagingFile> {
    const staged = await this.newStagingName();
    return {
      path: staged,
      commit: (key) => renameDurably(staged, this.file(key)),
      discard: () => rm(staged, { force: true }),
    };
  }

  async stagingArea() {
    await mkdir(this.stagingDir, { recursive: true });
    return this.stagingDir;
  }

  adopt(stagedPath: string, hash: string, size: number): StagedBlob {
    if (path.dirname(stagedPath) !== this.stagingDir) throw new Error(`${stagedPath} is not in the staging area`);
    return new StagedFile(stagedPath, hash, size, (key) => this.file(key));
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
    const moveTo = (key: string) => this.file(key);
    if (await this.writeNew(target, bytes)) return new StagedFile(target, hash, bytes.length, moveTo, true, true);
    const staged = await this.writeStaged((name) => writeFile(name, bytes, { flush: true }));
    return new StagedFile(staged, hash, bytes.length, moveTo, true);
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
    const staged = await this.newStagingName();
    const digest = new Digest();
    try {
      await pipeline([body, ...(through ? [through] : []), digest, createWriteStream(staged)]);
    } catch (error) {
      await rm(staged, { force: true });
      // The staging area removed meanwhile (by hand): the next file makes it again.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') this.stagingMade = false;
      throw error;
    }
    return new StagedFile(staged, digest.hex(), digest.size, (key) => this.file(key));
  }

  pathOf(key: string) {
    return this.file(key);
  }

  async read(key: string) {
    const file = this.file(key);
    if ((await this.size(key)) === null) return null;
    return createReadStream(file);
  }

  async size(key: string) {
    try {
      return (await stat(this.file(key))).size;
    } catch (error) {
      // Absent is an answer; a disk that cannot be read is a failure the caller reports.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
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
    const entries = await opendir(directory).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
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

  async removeStaleStaging(maxAgeMs: number, at = new Date()) {
    const names = await readdir(this.stagingDir).catch(() => [] as string[]);
    for (const name of names) {
      const staged = path.join(this.stagingDir, name);
      const info = await stat(staged).catch(() => null);
      if (info && at.getTime() - info.mtimeMs > maxAgeMs) await rm(staged, { force: true });
    }
  }
}
