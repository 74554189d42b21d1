import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { ResolvedConfig } from 'vite';
import { afterEach, describe, expect, it } from 'vitest';
import { precompress } from './precompress.ts';

const SCRIPT = `export const words = ${JSON.stringify('console '.repeat(500))};\n`;
const PAGE = `<!doctype html><title>${'Wharf '.repeat(100)}</title>`;

/** Runs the plugin over a build folder as Vite would at the end of a build. */
async function runOn(root: string) {
  const plugin = precompress();
  const configResolved = plugin.configResolved as (config: ResolvedConfig) => void;
  configResolved({ root, build: { outDir: 'dist' } } as ResolvedConfig);
  await (plugin.closeBundle as () => Promise<void>)();
}

describe('precompress', () => {
  let root = '';
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('writes brotli and gzip variants beside the text files, and nothing beside the page or images', async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'wharf-precompress-'));
    const dist = path.join(root, 'dist');
    await mkdir(path.join(dist, 'assets'), { recursive: true });
    await writeFile(path.join(dist, 'assets/index-BX3k9aQz.js'), SCRIPT);
    await writeFile(path.join(dist, 'assets/tiny-BX3k9aQz.css'), 'a{}');
    await writeFile(path.join(dist, 'assets/logo-BX3k9aQz.png'), Buffer.alloc(4096));
    await writeFile(path.join(dist, 'index.html'), PAGE);

    await runOn(root);

    expect((await readdir(path.join(dist, 'assets'))).sort()).toEqual([
      'index-BX3k9aQz.js',
      'index-BX3k9aQz.js.br',
      'index-BX3k9aQz.js.gz',
      'logo-BX3k9aQz.png',
      'tiny-BX3k9aQz.css',
    ]);
    expect(await readdir(dist)).not.toContain('index.html.br');
    const br = await readFile(path.join(dist, 'assets/index-BX3k9aQz.js.br'));
    const gz = await readFile(path.join(dist, 'assets/index-BX3k9aQz.js.gz'));
    expect(brotliDecompressSync(br).toString()).toBe(SCRIPT);
    expect(gunzipSync(gz).toString()).toBe(SCRIPT);
    expect(br.length).toBeLessThan(gz.length);
  });
});
