import { spawn } from 'node:child_process';
import { createHash, randomFillSync } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSite, startBenchServer } from '../deploy/wharfServer.ts';

/**
 * bench/extremes: the folder shapes too slow for the test suite (issue 26), through the real CLI
 * against a real server in a process of its own: 100,000 small files deployed fresh and again,
 * and one 2 GB file. Each is checked as a visitor gets it. `BENCH_PARTS` (default
 * `many,large`) picks some; `BENCH_FILES` and `BENCH_LARGE_BYTES` change the sizes.
 */

const FILES = Number(process.env.BENCH_FILES ?? 100_000);
const LARGE_BYTES = Number(process.env.BENCH_LARGE_BYTES ?? 2 * 1000 ** 3);
const PARTS = new Set((process.env.BENCH_PARTS ?? 'many,large').split(','));
const WHARF_CLI = fileURLToPath(new URL('../../packages/cli/bin/wharf.js', import.meta.url));

interface Upload {
  seconds: number;
  unchanged: boolean;
  uploaded: { files: number; bytes: number };
  sentBytes: number;
  url: string;
}

/** `wharf upload` as CI runs it, timed from process start to exit. */
function upload(folder: string, target: { url: string; siteId: string; token: string }): Promise<Upload> {
  const args = ['upload', folder, '--url', target.url, '--site', target.siteId, '--token', target.token];
  const startedAt = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WHARF_CLI, ...args, '--branch', 'main', '--json'], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, WHARF_HASH_CACHE: 'off' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`wharf upload exited with ${code}: ${stderr || stdout}`));
      const result = JSON.parse(stdout);
      resolve({
        seconds: (performance.now() - startedAt) / 1000,
        unchanged: result.unchanged,
        uploaded: result.uploaded,
        sentBytes: result.sentBytes,
        url: result.branches[0].url,
      });
    });
  });
}

/** The sha256 and size of what a branch serves at `pathname`, asked by host name as a browser would. */
function servedHash(serverUrl: string, branchUrl: string, pathname: string) {
  return new Promise<{ status: number; hash: string; bytes: number }>((resolve, reject) => {
    const { port } = new URL(serverUrl);
    const request = http.get(
      { host: '127.0.0.1', port, path: pathname, headers: { host: new URL(branchUrl).host } },
      (response) => {
        const hash = createHash('sha256');
        let bytes = 0;
        response.on('data', (chunk: Buffer) => {
          hash.update(chunk);
          bytes += chunk.length;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, hash: hash.digest('hex'), bytes }));
        // With a listener, a download cut midway fails here; without one Node emits neither event.
        response.on('error', reject);
      },
    );
    request.on('error', reject);
  });
}

const fileHash = (file: string) =>
  new Promise<string>((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject);
  });

/** A build folder of `count` small files, 100 to a folder, each of its own content. */
async function manyFiles(root: string, count: number) {
  for (let folder = 0; folder * 100 < count; folder++) {
    await mkdir(path.join(root, `f${folder}`), { recursive: true });
    const names = Array.from({ length: Math.min(100, count - folder * 100) }, (_, n) => n);
    await Promise.all(names.map((n) => writeFile(path.join(root, `f${folder}`, `p${n}.txt`), `page ${folder}/${n}\n`)));
  }
}

/** One file of `bytes` incompressible bytes, written 64 MiB at a time. */
async function largeFile(file: string, bytes: number) {
  const handle = await open(file, 'w');
  const chunk = Buffer.alloc(64 * 1024 * 1024);
  for (let written = 0; written < bytes; written += chunk.length) {
    const part = chunk.subarray(0, Math.min(chunk.length, bytes - written));
    randomFillSync(part);
    await handle.write(part);
  }
  await handle.close();
}

const line = (label: string, result: Upload) =>
  console.log(
    `${label.padEnd(34)} ${result.seconds.toFixed(1).padStart(7)} s  ${result.unchanged ? 'unchanged' : 'new release'}, sent ${result.uploaded.files} files (${(result.uploaded.bytes / 1e6).toFixed(1)} MB), ${(result.sentBytes / 1e6).toFixed(1)} MB of bodies`,
  );

const work = await mkdtemp(path.join(os.tmpdir(), 'wharf-bench-extremes-'));
const server = await startBenchServer({
  WHARF_MAX_RELEASE_BYTES: String(8 * 1024 ** 3),
  WHARF_MAX_RELEASE_FILES: String(Math.max(FILES, 100_000)),
});
try {
  if (PARTS.has('many')) {
    const root = path.join(work, 'many');
    await manyFiles(root, FILES);
    const target = { url: server.url, ...(await createSite(server.url, 'many-files')) };
    const fresh = await upload(root, target);
    line(`${FILES} files, fresh`, fresh);
    const again = await upload(root, target);
    line(`${FILES} files, again`, again);
    const last = Math.floor((FILES - 1) / 100);
    const served = await servedHash(server.url, fresh.url, `/f${last}/p${(FILES - 1) % 100}.txt`);
    const expected = createHash('sha256')
      .update(`page ${last}/${(FILES - 1) % 100}\n`)
      .digest('hex');
    console.log(`  last file served: ${served.status}, ${served.hash === expected ? 'byte-identical' : 'DIFFERENT'}`);
  }
  if (PARTS.has('large')) {
    const root = path.join(work, 'large');
    await mkdir(root);
    await largeFile(path.join(root, 'video.bin'), LARGE_BYTES);
    const target = { url: server.url, ...(await createSite(server.url, 'large-file')) };
    const fresh = await upload(root, target);
    line(`${(LARGE_BYTES / 1e9).toFixed(1)} GB file, fresh`, fresh);
    const served = await servedHash(server.url, fresh.url, '/video.bin');
    const expected = await fileHash(path.join(root, 'video.bin'));
    console.log(
      `  served: ${served.status}, ${served.bytes} bytes, ${served.hash === expected ? 'byte-identical' : 'DIFFERENT'}`,
    );
    line(`${(LARGE_BYTES / 1e9).toFixed(1)} GB file, again`, await upload(root, target));
  }
} finally {
  await server.close();
  await rm(work, { recursive: true, force: true });
}
