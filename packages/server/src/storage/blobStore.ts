import type { Readable, Transform } from 'node:stream';

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

/** A blob as a file on this machine, for a reader that wants a path (a compression thread). */
export interface LocalCopy {
  readonly path: string;
  /** Lets go of it: a copy made for the reader is removed. */
  release(): Promise<void>;
}

/**
 * Where Wharf keeps files (logos, release blobs): a directory (`FileBlobStore`) or an
 * S3-compatible bucket (`S3BlobStore`). Every write is durable before it resolves, so a database
 * commit that follows may rely on it. Content waits for its key in a staging area on this machine.
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
  /** A blob as a file on this machine (a compression thread reads it by its path); null when absent. */
  localCopy(key: string): Promise<LocalCopy | null>;
  /** A byte range of a blob (inclusive end); null when absent. */
  readRange(key: string, start: number, end: number): Promise<Readable | null>;
  /** A whole blob in memory (small ones: the edge's files, a release's settings); null when absent. */
  readAll(key: string): Promise<Buffer | null>;
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
  /** Resolves when the store can be read and written (for /readyz); rejects with why not. */
  reachable(): Promise<void>;
}

/**
 * Refuses a key that is not `segment/segment/…` of letters, digits, `.`, `_` and `-`, none starting
 * with a dot: that keeps keys off the staging area and out of `..`, in a folder or a bucket.
 */
export function mustBeBlobKey(key: string) {
  if (!/^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/.test(key)) {
    throw new Error(`Bad blob key ${key}`);
  }
}
