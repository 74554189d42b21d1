import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export interface BenchFile {
  /** Path in the release and under nginx's root. */
  name: string;
  label: string;
  content: Buffer;
}

function html(size: number) {
  const head = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bench</title></head><body>\n';
  const tail = '</body></html>\n';
  let body = '';
  for (let i = 0; head.length + body.length + tail.length < size; i++) body += `<p>Paragraph ${i} of the page.</p>\n`;
  return Buffer.from((head + body + tail).slice(0, size - tail.length) + tail);
}

function script(size: number) {
  let code = '';
  for (let i = 0; code.length < size; i++)
    code += `export function handler${i}(event) { return event.value * ${i} + 1; }\n`;
  return Buffer.from(code.slice(0, size));
}

/** The release of the issue: a 2 KB page, a 100 KB script and a 1 MB image (incompressible bytes). */
export function benchFiles(): BenchFile[] {
  return [
    { name: 'index.html', label: 'index.html 2 KB', content: html(2 * 1024) },
    { name: 'app.js', label: 'app.js 100 KB', content: script(100 * 1024) },
    { name: 'photo.jpg', label: 'photo.jpg 1 MB', content: randomBytes(1024 * 1024) },
  ];
}

const COMPRESSIBLE = /\.(html|js)$/;

/**
 * Writes the files into a directory: with their `.gz` variants beside them for nginx's
 * gzip_static, and as the tar.gz Wharf takes as a release.
 */
export async function writeSiteFiles(dir: string, files: BenchFile[]) {
  const root = path.join(dir, 'site');
  await mkdir(root, { recursive: true });
  for (const file of files) await writeFile(path.join(root, file.name), file.content);
  const archive = path.join(dir, 'site.tar.gz');
  execFileSync('tar', ['-czf', archive, '-C', root, ...files.map((file) => file.name)]);
  for (const file of files) {
    if (COMPRESSIBLE.test(file.name))
      await writeFile(path.join(root, `${file.name}.gz`), gzipSync(file.content, { level: 9 }));
  }
  return { root, archive };
}
