import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { randomString } from '../lib/ids.ts';

/** Where Wharf keeps files (logos, release blobs): a directory now, an S3-compatible bucket later. */
export interface BlobStore {
  put(key: string, data: Buffer): Promise<void>;
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
