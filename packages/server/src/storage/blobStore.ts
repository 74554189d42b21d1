import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { randomString } from '../lib/ids.ts';

/** Where Wharf keeps files (logos, release blobs): a directory now, an S3-compatible bucket later. */
export interface BlobStore {
  put(key: string, data: Buffer): Promise<void>;
  /** Moves a finished local file into the store under a key. */
  putFile(key: string, localPath: string): Promise<void>;
  /** Reads a byte range (inclusive end) or the whole blob. */
  readRange?(key: string, start: number, end: number): Promise<Readable | null>;
  read(key: string): Promise<Readable | null>;
  size(key: string): Promise<number | null>;
  remove(key: string): Promise<void>;
}

/** Blobs as files under a root directory; writes land atomically through a rename. */
export class FileBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  private file(key: string) {
    if (!/^[A-Za-z0-9._/-]+$/.test(key) || key.split('/').includes('..')) throw new Error(`Bad blob key ${key}`);
    return path.join(this.root, key);
  }

  async put(key: string, data: Buffer) {
    const file = this.file(key);
    await mkdir(path.dirname(file), { recursive: true });
    const temporary = `${file}.${randomString(8)}.tmp`;
    await writeFile(temporary, data);
    await rename(temporary, file);
  }

  async putFile(key: string, localPath: string) {
    const file = this.file(key);
    await mkdir(path.dirname(file), { recursive: true });
    await rename(localPath, file);
  }

  /** The local path of a blob: the edge streams files straight from disk. */
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
    } catch {
      return null;
    }
  }

  async remove(key: string) {
    await rm(this.file(key), { force: true });
  }
}
