import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { contentTypeOf } from '@wharf/contract';
import type { Manifest, ServedFile } from '../edge/manifests.ts';
import { blobKey, type Variant } from '../releaseFiles/blobKeys.ts';

/** The console's files as the edge's file responder serves a release: by path, with where each form lies. */
export interface ConsoleFiles {
  manifest: Manifest;
  /** The file on disk of each stored form (`blobKey` of its hash and variant). */
  pathOf(key: string): string;
}

/** The build step's variants beside each file (packages/web/build/precompress.ts). */
const VARIANT_EXTENSIONS: [Exclude<Variant, 'identity'>, string][] = [
  ['br', '.br'],
  ['gzip', '.gz'],
];

const isVariant = (file: string) => VARIANT_EXTENSIONS.some(([, extension]) => file.endsWith(extension));

function sizeOf(file: string): number | null {
  return existsSync(file) ? statSync(file).size : null;
}

/**
 * Reads a console build once, at start: each file's hash (its strong ETag) and the sizes of its
 * precompressed variants. index.html is left out: the server writes every copy of it itself.
 */
export function readConsoleFiles(root: string): ConsoleFiles {
  const manifest: Manifest = new Map();
  const locations = new Map<string, string>();
  const names = readdirSync(root, { recursive: true, encoding: 'utf8' });
  for (const name of names) {
    const file = path.join(root, name);
    // Keyed as the edge keys a release: the path below the root, without a leading slash.
    const urlPath = name.split(path.sep).join('/');
    if (urlPath === 'index.html' || isVariant(file) || !statSync(file).isFile()) continue;
    const content = readFileSync(file);
    const hash = createHash('sha256').update(content).digest('hex');
    const modifiedAt = Math.floor(statSync(file).mtimeMs / 1000) * 1000;
    const served: ServedFile = {
      path: urlPath,
      hash,
      size: content.length,
      brSize: sizeOf(`${file}.br`),
      gzSize: sizeOf(`${file}.gz`),
      variantsPending: false,
      contentType: contentTypeOf(file),
      lastModified: new Date(modifiedAt).toUTCString(),
      modifiedAt,
    };
    manifest.set(urlPath, served);
    locations.set(blobKey(hash), file);
    for (const [variant, extension] of VARIANT_EXTENSIONS) locations.set(blobKey(hash, variant), file + extension);
  }
  return {
    manifest,
    pathOf: (key) => {
      const file = locations.get(key);
      if (!file) throw new Error(`No console file is stored as ${key}`);
      return file;
    },
  };
}
