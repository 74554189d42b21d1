import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { type Nginx, startNginx } from '../../test/nginx.ts';
import { type SiteAnswer, siteRequest } from '../../test/siteClient.ts';
import { buildWorld, uploadRelease } from '../../test/world.ts';

/** Printable bytes that compress badly; a `.png` gets no compressed variants in Wharf either. */
const PHOTO = Array.from({ length: 3000 }, (_, i) => String.fromCharCode(33 + ((i * 7919) % 89))).join('');
const FILES = [
  { name: 'index.html', content: '<!doctype html><title>home</title>' },
  { name: 'app.js', content: `export const data = ${JSON.stringify('abc '.repeat(2000))};` },
  { name: 'photo.png', content: PHOTO },
  { name: 'docs/index.html', content: '<p>docs</p>' },
  { name: '404.html', content: '<p>not found here</p>' },
  { name: '.well-known/security.txt', content: 'Contact: mailto:security@example.com' },
  { name: '.wharf.yml', content: 'forms:\n  - name: contact\n    type: db\n' },
  { name: '_redirects', content: '/old /new 301' },
];

/** What the comparison looks at in an answer. */
interface Summary {
  status: number;
  /** Length and digest of the body, decoded when a whole file was sent encoded; `own page` for the server's own pages. */
  body: string;
  encoding: string | null;
  contentRange: string | null;
  varyAcceptEncoding: boolean;
  location: string | null;
}

/** The validators of the file a request asks for, as the server under test sends them. */
interface Validators {
  etag: string;
  lastModified: string;
}

interface Case {
  /** The request target: a path, or made from the host (`host:port`) the server is asked on. */
  path: string | ((host: string) => string);
  method?: 'GET' | 'HEAD' | 'POST';
  /** Headers by name after the Host, or every header line (`[name, value, …]`, the Host included). */
  headers?: (file: Validators, host: string) => Record<string, string> | string[];
  /** Where Wharf answers otherwise on purpose: what differs, and why. */
  differs?: { wharf: Partial<Summary>; why: string };
}

const STALE = '"0123456789abcdef"';
const DAY_MS = 24 * 60 * 60 * 1000;
const dayBefore = (date: string) => new Date(Date.parse(date) - DAY_MS).toUTCString();

function describeBytes(bytes: Buffer) {
  return `${bytes.length} bytes ${createHash('sha256').update(bytes).digest('hex').slice(0, 12)}`;
}

const bodyOf = (name: string, start = 0, end?: number) =>
  describeBytes(Buffer.from(FILES.find((file) => file.name === name)!.content).subarray(start, end));

function decoded(answer: SiteAnswer) {
  if (answer.status !== 200 || answer.body.length === 0) return answer.body;
  if (answer.headers['content-encoding'] === 'gzip') return gunzipSync(answer.body);
  if (answer.headers['content-encoding'] === 'br') return brotliDecompressSync(answer.body);
  return answer.body;
}

function summarise(answer: SiteAnswer): Summary {
  const filesContent = [200, 206, 404].includes(answer.status);
  return {
    status: answer.status,
    body: filesContent ? describeBytes(decoded(answer)) : 'own page',
    encoding: answer.headers['content-encoding'] ?? null,
    contentRange: answer.headers['content-range'] ?? null,
    varyAcceptEncoding: /accept-encoding/i.test(String(answer.headers.vary ?? '')),
    location: answer.headers.location ?? null,
  };
}

const NO_BROTLI = "Debian's nginx has no brotli module; Wharf stores a brotli variant and prefers it on a tie";

/**
 * The same request to both servers; a row without `differs` must get the same answer. nginx's own
 * pages (301, 405, 412, 416) differ in body only.
 */
const CASES: Record<string, Case> = {
  'a file': { path: '/app.js' },
  'HEAD of a file': { path: '/app.js', method: 'HEAD' },
  'the root folder': { path: '/' },
  'a folder without its slash': { path: '/docs' },
  'a folder without its slash, with a query': { path: '/docs?x=1' },
  'a folder': { path: '/docs/' },
  'a missing file (the release 404.html)': { path: '/missing.txt' },
  'HEAD of a missing file': { path: '/missing.txt', method: 'HEAD' },
  'a POST to a file': { path: '/app.js', method: 'POST' },
  'the release config': { path: '/.wharf.yml' },
  'a redirects file': { path: '/_redirects' },
  'a file in .well-known': { path: '/.well-known/security.txt' },

  'Range a-b': { path: '/photo.png', headers: () => ({ range: 'bytes=0-99' }) },
  'Range a-': { path: '/photo.png', headers: () => ({ range: 'bytes=2900-' }) },
  'Range -n': { path: '/photo.png', headers: () => ({ range: 'bytes=-100' }) },
  'Range past the end': { path: '/photo.png', headers: () => ({ range: 'bytes=5000-' }) },
  'Range with an end past the end': { path: '/photo.png', headers: () => ({ range: 'bytes=2990-9999' }) },
  'Range on HEAD': { path: '/photo.png', method: 'HEAD', headers: () => ({ range: 'bytes=0-99' }) },
  'Range of many parts': {
    path: '/photo.png',
    headers: () => ({ range: 'bytes=0-9,20-29' }),
    differs: {
      wharf: { status: 200, body: bodyOf('photo.png'), contentRange: null },
      why: 'RFC 9110 lets a server ignore a Range; Wharf sends the whole file rather than a multipart body',
    },
  },
  'Range with Accept-Encoding: gzip': {
    path: '/app.js',
    headers: () => ({ range: 'bytes=0-99', 'accept-encoding': 'gzip' }),
    differs: {
      wharf: {
        status: 206,
        body: bodyOf('app.js', 0, 100),
        encoding: null,
        contentRange: `bytes 0-99/${FILES[1]!.content.length}`,
      },
      why: 'nginx sends the whole .gz and ignores the Range; Wharf sends the range of the unencoded file, so that a download resumes whatever the client accepts',
    },
  },

  'If-Range with the current ETag': {
    path: '/photo.png',
    headers: (file) => ({ range: 'bytes=0-99', 'if-range': file.etag }),
  },
  'If-Range with a stale ETag': { path: '/photo.png', headers: () => ({ range: 'bytes=0-99', 'if-range': STALE }) },
  'If-Range with the current ETag, weak': {
    path: '/photo.png',
    headers: (file) => ({ range: 'bytes=0-99', 'if-range': `W/${file.etag}` }),
  },
  'If-Range with the Last-Modified date': {
    path: '/photo.png',
    headers: (file) => ({ range: 'bytes=0-99', 'if-range': file.lastModified }),
  },
  'If-Range with an older date': {
    path: '/photo.png',
    headers: (file) => ({ range: 'bytes=0-99', 'if-range': dayBefore(file.lastModified) }),
  },

  'If-Match, current': { path: '/photo.png', headers: (file) => ({ 'if-match': file.etag }) },
  'If-Match, stale': { path: '/photo.png', headers: () => ({ 'if-match': STALE }) },
  'If-Match, one of a list': { path: '/photo.png', headers: (file) => ({ 'if-match': `${STALE}, ${file.etag}` }) },
  'If-Match, weak': { path: '/photo.png', headers: (file) => ({ 'if-match': `W/${file.etag}` }) },
  'If-Match: *': { path: '/photo.png', headers: () => ({ 'if-match': '*' }) },
  'If-Match, stale, on a missing file': { path: '/missing.txt', headers: () => ({ 'if-match': STALE }) },
  'If-Unmodified-Since, current': {
    path: '/photo.png',
    headers: (file) => ({ 'if-unmodified-since': file.lastModified }),
  },
  'If-Unmodified-Since, older': {
    path: '/photo.png',
    headers: (file) => ({ 'if-unmodified-since': dayBefore(file.lastModified) }),
  },
  'If-None-Match, current': { path: '/photo.png', headers: (file) => ({ 'if-none-match': file.etag }) },
  'If-None-Match, current, weak': { path: '/photo.png', headers: (file) => ({ 'if-none-match': `W/${file.etag}` }) },
  'If-None-Match, stale': { path: '/photo.png', headers: () => ({ 'if-none-match': STALE }) },
  'If-None-Match: *': { path: '/photo.png', headers: () => ({ 'if-none-match': '*' }) },
  'If-Modified-Since, current': { path: '/photo.png', headers: (file) => ({ 'if-modified-since': file.lastModified }) },
  'If-Modified-Since, older': {
    path: '/photo.png',
    headers: (file) => ({ 'if-modified-since': dayBefore(file.lastModified) }),
  },
  'If-Match stale and If-None-Match current': {
    path: '/photo.png',
    headers: (file) => ({ 'if-match': STALE, 'if-none-match': file.etag }),
  },

  'Accept-Encoding: gzip': { path: '/app.js', headers: () => ({ 'accept-encoding': 'gzip' }) },
  'Accept-Encoding: GZIP': { path: '/app.js', headers: () => ({ 'accept-encoding': 'GZIP' }) },
  'Accept-Encoding: gzip;q=0': { path: '/app.js', headers: () => ({ 'accept-encoding': 'gzip;q=0' }) },
  'Accept-Encoding: br;q=0, gzip': { path: '/app.js', headers: () => ({ 'accept-encoding': 'br;q=0, gzip' }) },
  'Accept-Encoding: deflate': { path: '/app.js', headers: () => ({ 'accept-encoding': 'deflate' }) },
  'Accept-Encoding: identity;q=0': { path: '/app.js', headers: () => ({ 'accept-encoding': 'identity;q=0' }) },
  'Accept-Encoding of a browser': {
    path: '/app.js',
    headers: () => ({ 'accept-encoding': 'gzip, deflate, br, zstd' }),
    differs: { wharf: { encoding: 'br' }, why: NO_BROTLI },
  },
  'Accept-Encoding: *': {
    path: '/app.js',
    headers: () => ({ 'accept-encoding': '*' }),
    differs: { wharf: { encoding: 'br' }, why: `nginx does not read *; ${NO_BROTLI}` },
  },
  'Accept-Encoding: x-gzip': {
    path: '/app.js',
    headers: () => ({ 'accept-encoding': 'x-gzip' }),
    differs: { wharf: { encoding: 'gzip' }, why: 'RFC 9110 §8.4.1.3: x-gzip is gzip; nginx does not know it' },
  },
  'Accept-Encoding: gzip;q=0.5, identity': {
    path: '/app.js',
    headers: () => ({ 'accept-encoding': 'gzip;q=0.5, identity' }),
    differs: { wharf: { encoding: null }, why: 'the client weighs the unencoded file higher; nginx ignores identity' },
  },
  'Accept-Encoding: gzip for a file without variants': {
    path: '/photo.png',
    headers: () => ({ 'accept-encoding': 'gzip' }),
  },

  'Range with the unit in another case': { path: '/photo.png', headers: () => ({ range: 'Bytes=0-9' }) },
  'an absolute-form target, whose host wins over Host': {
    path: (host) => `http://${host}/app.js`,
    headers: () => ['Host', 'elsewhere.invalid'],
  },
  'two Host headers': { path: '/app.js', headers: (_file, host) => ['Host', host, 'Host', host] },
  'a URL over 8 KB': { path: `/${'a'.repeat(9_000)}` },
  'a URL over 16 KB, more than Node reads of a request head': { path: `/${'a'.repeat(20_000)}` },
};

describe('the edge answers as nginx does', () => {
  let server: TestServer;
  let nginx: Nginx;
  let wharfPort: number;
  let host: string;
  let root: string;

  beforeAll(async () => {
    server = await startTestServer();
    wharfPort = Number(new URL(server.url).port);
    const world = await buildWorld(server.url);
    host = `${world.site.name}.localhost:${wharfPort}`;
    await uploadRelease(world.clients.owner, world.site._id, 'compared', ['main'], FILES);
    root = await mkdtemp(path.join(os.tmpdir(), 'wharf-nginx-root-'));
    // The same files under nginx's root, with Wharf's own gzip variants and its Last-Modified.
    const release = await siteRequest(wharfPort, host, '/');
    const modified = new Date(String(release.headers['last-modified']));
    for (const file of FILES) {
      const target = path.join(root, file.name);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, file.content);
      const gzip = await siteRequest(wharfPort, host, `/${file.name}`, { headers: { 'accept-encoding': 'gzip' } });
      await utimes(target, modified, modified);
      if (gzip.headers['content-encoding'] !== 'gzip') continue;
      await writeFile(`${target}.gz`, gzip.body);
      await utimes(`${target}.gz`, modified, modified);
    }
    nginx = await startNginx(root);
  });
  afterAll(async () => {
    await nginx?.close();
    await server?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  async function ask(port: number, on: string, request: Case) {
    const target = typeof request.path === 'string' ? request.path : request.path(on);
    const plain = await siteRequest(port, on, target);
    const file = { etag: String(plain.headers.etag), lastModified: String(plain.headers['last-modified']) };
    const headers = request.headers?.(file, on) ?? {};
    return summarise(await siteRequest(port, on, target, { method: request.method, headers }));
  }

  it.each(Object.entries(CASES))('%s', async (_name, request) => {
    const fromNginx = await ask(nginx.port, 'localhost', request);
    const fromWharf = await ask(wharfPort, host, request);
    expect(fromWharf).toEqual({ ...fromNginx, ...request.differs?.wharf });
  });
});
