import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomString } from '../lib/ids.ts';
import { renameDurably } from '../storage/durable.ts';

/** Writes a stream to `target` so that a crash leaves either nothing or the whole file, on disk. */
export async function writeDurably(target: string, content: Readable) {
  await mkdir(path.dirname(target), { recursive: true });
  const temporary = `${target}.${randomString(8)}.tmp`;
  try {
    await pipeline(content, createWriteStream(temporary));
    await renameDurably(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
