import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Text formats worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|svg|json|map|md|txt|xml|webmanifest)$/;
/** Below this, the headers of an encoded answer cost more than the bytes saved (as the edge decides). */
const MIN_SIZE = 256;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

/** Writes `file.br` and `file.gz` beside a file, each only when it is smaller. */
async function precompressFile(file: string) {
  const content = await readFile(file);
  if (content.length < MIN_SIZE) return;
  const variants = await Promise.all([
    brotli(content, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
      },
    }).then((encoded) => ['br', encoded] as const),
    gzipped(content, { level: constants.Z_BEST_COMPRESSION }).then((encoded) => ['gz', encoded] as const),
  ]);
  for (const [extension, encoded] of variants) {
    if (encoded.length < content.length) await writeFile(`${file}.${extension}`, encoded);
  }
}

/**
 * Brotli and gzip variants of the console's text files, made once at build time with the
 * strongest settings, so that the server only picks one per request (serveConsole.ts). index.html
 * is left out: the server writes a fresh nonce into every copy it sends.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'wharf:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await filesUnder(outDir)).filter(
        (file) => COMPRESSIBLE.test(file) && path.relative(outDir, file) !== 'index.html',
      );
      await Promise.all(files.map(precompressFile));
    },
  };
}
