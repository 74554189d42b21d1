import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressionPool } from '../variants.ts';

describe('the compression threads', () => {
  let dir: string;
  let input: string;
  let content: Buffer;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'wharf-threads-'));
    input = path.join(dir, 'input.txt');
    // About 300 kB of text: brotli at quality 9 keeps a thread busy for a while, well within the grace.
    content = Buffer.from(Array.from({ length: 6_000 }, () => `${randomBytes(24).toString('hex')}\n`).join(''));
    await writeFile(input, content);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const task = (name: string) => ({
    input,
    size: content.length,
    outputs: { br: path.join(dir, `${name}.br`), gzip: path.join(dir, `${name}.gz`) },
  });

  it('finish the tasks under way when the pool closes, then exit by themselves', async () => {
    const pool = compressionPool(2);
    const running = Promise.all([pool.run(task('one')), pool.run(task('two'))]);
    const waiting = expect(pool.run(task('three'))).rejects.toThrow('The thread pool is closed');
    // Closed while both threads compress: a thread stopped midway by terminate() could be caught
    // inside zlib's constructors, which aborts the process as the thread is cleaned up.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await pool.close();

    for (const answer of await running) {
      expect(answer.sizes.gzip).toBeGreaterThan(0);
      expect(answer.sizes.br).toBeGreaterThan(0);
    }
    expect(gunzipSync(await readFile(task('one').outputs.gzip)).equals(content)).toBe(true);
    await waiting;
    await expect(stat(task('three').outputs.gzip)).rejects.toThrow('ENOENT');
    await expect(pool.run(task('four'))).rejects.toThrow('The thread pool is closed');
  });
});
