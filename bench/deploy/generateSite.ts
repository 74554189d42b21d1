import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';

/** mulberry32: small, fast and seeded, so a seed gives the same site on every run. */
function seededRandom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Words of markup, styles and scripts: text that compresses about as well as a real bundle.
const WORDS = (
  'const let function return export import from class extends this new await async if else for while ' +
  'true false null undefined div span section header footer main nav button input form label href src ' +
  'display flex grid margin padding color background border width height font-size 0 1 2 8 16 24 px rem ' +
  '{ } ( ) [ ] ; : , . = => < > /> === && || ? props state data value items index key map filter reduce'
).split(' ');

/** What a generated site holds: the kinds of file a built frontend has, and their share of files. */
const KINDS = [
  { folder: 'pages', extension: 'html', share: 0.2, text: true, weight: 0.6 },
  { folder: 'assets/css', extension: 'css', share: 0.1, text: true, weight: 0.6 },
  { folder: 'assets/js', extension: 'js', share: 0.3, text: true, weight: 0.6 },
  { folder: 'data', extension: 'json', share: 0.1, text: true, weight: 0.6 },
  { folder: 'images', extension: 'webp', share: 0.3, text: false, weight: 1.9 },
];

function pickKind(roll: number) {
  let rest = roll;
  for (const kind of KINDS) {
    rest -= kind.share;
    if (rest < 0) return kind;
  }
  return KINDS.at(-1)!;
}

export interface GeneratedSite {
  root: string;
  files: string[];
  bytes: number;
}

function textPool(random: () => number, length: number): Buffer {
  const parts: string[] = [];
  let size = 0;
  while (size < length) {
    const word = WORDS[Math.floor(random() * WORDS.length)]!;
    parts.push(word, random() < 0.1 ? '\n' : ' ');
    size += word.length + 1;
  }
  return Buffer.from(parts.join(''));
}

function randomBytesOf(random: () => number, length: number): Buffer {
  const pool = Buffer.alloc(length);
  for (let offset = 0; offset + 4 <= length; offset += 4) pool.writeUInt32LE((random() * 2 ** 32) >>> 0, offset);
  return pool;
}

/**
 * A built site of `fileCount` files and `totalBytes` bytes: pages, styles, scripts, data and
 * images in nested folders. Every file differs (its path heads it), so nothing is deduplicated.
 */
export async function generateSite(root: string, fileCount: number, totalBytes: number, seed: number) {
  const random = seededRandom(seed);
  const pools = { text: textPool(random, 4 * 1024 * 1024) };
  const plan = Array.from({ length: fileCount }, (_, index) => {
    const kind = pickKind(random());
    const name = `${kind.folder}/section-${index % 40}/file-${index}.${kind.extension}`;
    return { name, kind, raw: kind.weight * (0.2 + 1.6 * random()) };
  });
  const scale = totalBytes / plan.reduce((sum, file) => sum + file.raw, 0);
  const files: string[] = [];
  let bytes = 0;
  for (const file of plan) {
    const head = Buffer.from(`/* ${file.name} ${seed} */\n`);
    const size = Math.max(head.length, Math.round(file.raw * scale));
    // Text is cut from one pool of words, as pages share a vocabulary; an image's bytes are its
    // own, as real images' compressed bytes are: cut from a shared pool, the 'images' would repeat
    // one another and compress across files as no real site's do.
    const start = Math.floor(random() * (pools.text.length - size));
    const body = file.kind.text
      ? pools.text.subarray(start, start + size - head.length)
      : randomBytesOf(random, size - head.length);
    const target = path.join(root, file.name);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, Buffer.concat([head, body]));
    files.push(target);
    bytes += size;
  }
  await writeFile(path.join(root, 'index.html'), `<!doctype html><title>Bench ${seed}</title>`);
  return { root, files, bytes } satisfies GeneratedSite;
}

/** Changes one script of the site, as a one-line fix would; answers which. */
export async function changeOneFile(site: GeneratedSite): Promise<string> {
  const file = site.files.find((name) => name.endsWith('.js'))!;
  await appendFile(file, `\n// changed at ${new Date().toISOString()}\n`);
  return file;
}

/**
 * A tar.gz of incompressible files (4 MiB each) holding at least `bytes`: the worst case for a
 * server that must unpack, hash and store an archive as it streams in.
 */
export async function generateLargeArchive(folder: string, archive: string, bytes: number) {
  const chunk = 4 * 1024 * 1024;
  for (let index = 0; index * chunk < bytes; index++) {
    await mkdir(path.join(folder, `videos/${index % 16}`), { recursive: true });
    await writeFile(path.join(folder, `videos/${index % 16}/clip-${index}.mp4`), randomBytes(chunk));
  }
  const tar = spawn('tar', ['-C', folder, '-cf', '-', '.'], { stdio: ['ignore', 'pipe', 'inherit'] });
  // Level 1: the data is random anyway, and the bench should not wait on gzip.
  await pipeline(tar.stdout, createGzip({ level: 1 }), createWriteStream(archive));
}
