import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomString } from '../lib/ids.ts';

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

/**
 * The folder on this machine where content waits for its key: uploads being received, variants
 * being compressed, archives being unpacked. Every store has one; a crash leaves what was in it to
 * `removeStale`.
 */
export class LocalStaging {
  /** Whether the folder is known to exist: thousands of files are staged a second. */
  private made = false;

  constructor(readonly dir: string) {}

  async newName() {
    if (!this.made) {
      await mkdir(this.dir, { recursive: true });
      this.made = true;
    }
    return path.join(this.dir, `${Date.now().toString(36)}-${randomString(10)}`);
  }

  /** Writes a new staging file with `write`; a folder removed meanwhile (by hand) is made again. */
  async write(write: (file: string) => Promise<void>) {
    for (let attempt = 1; ; attempt++) {
      const file = await this.newName();
      try {
        await write(file);
        return file;
      } catch (error) {
        await rm(file, { force: true });
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt > 1) throw error;
        this.made = false;
      }
    }
  }

  /** Streams `body` into a new staging file through `through` (a limit, a compressor), hashing and counting it. */
  async stream(body: Readable, through?: Transform) {
    const file = await this.newName();
    const digest = new Digest();
    try {
      await pipeline([body, ...(through ? [through] : []), digest, createWriteStream(file)]);
    } catch (error) {
      await rm(file, { force: true });
      // The folder removed meanwhile (by hand): the next file makes it again.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') this.made = false;
      throw error;
    }
    return { file, hash: digest.hex(), size: digest.size };
  }

  /** The folder, made if need be, for a writer that names its own files in it. */
  async area() {
    await mkdir(this.dir, { recursive: true });
    return this.dir;
  }

  holds(file: string) {
    return path.dirname(file) === this.dir;
  }

  /** Removes staged content older than `maxAgeMs`: uploads that a crash cut off. */
  async removeStale(maxAgeMs: number, at = new Date()) {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    for (const name of names) {
      const staged = path.join(this.dir, name);
      const info = await stat(staged).catch(() => null);
      if (info && at.getTime() - info.mtimeMs > maxAgeMs) await rm(staged, { force: true });
    }
  }
}
