import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { type SiteAnswer, siteRequest } from '../../test/siteClient.ts';

const PAGE = `<!doctype html><html><head>
<meta name="wharf-session-cookie" content="WHARF_SESSION_COOKIE">
<meta property="csp-nonce" nonce="WHARF_CSP_NONCE">
<script type="module" src="/assets/index-BX3k9aQz.js"></script>
</head><body><div id="root"></div></body></html>`;
const SCRIPT = `export const words = ${JSON.stringify('console '.repeat(2000))};\n`;
const ICON = '<svg xmlns="http://www.w3.org/2000/svg"/>';

/** A console build as packages/web's makes it: a fingerprinted script with its variants, and files without. */
async function writeConsole(dir: string) {
  await mkdir(path.join(dir, 'assets'));
  await writeFile(path.join(dir, 'index.html'), PAGE);
  await writeFile(path.join(dir, 'assets/index-BX3k9aQz.js'), SCRIPT);
  await writeFile(path.join(dir, 'assets/index-BX3k9aQz.js.br'), brotliCompressSync(SCRIPT));
  await writeFile(path.join(dir, 'assets/index-BX3k9aQz.js.gz'), gzipSync(SCRIPT));
  await writeFile(path.join(dir, 'favicon.svg'), ICON);
}

describe('the console served like a site', () => {
  let server: TestServer;
  let consoleDir: string;
  let port: number;

  beforeAll(async () => {
    consoleDir = await mkdtemp(path.join(os.tmpdir(), 'wharf-console-'));
    await writeConsole(consoleDir);
    server = await startTestServer({ consoleDir });
    port = Number(new URL(server.url).port);
  });
  afterAll(async () => {
    await server.close();
    await rm(consoleDir, { recursive: true, force: true });
  });

  const get = (urlPath: string, headers: Record<string, string> = {}, method = 'GET') =>
    siteRequest(port, `127.0.0.1:${port}`, urlPath, { method, headers });
  const script = (acceptEncoding?: string) =>
    get('/assets/index-BX3k9aQz.js', acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding });

  const decoded = (answer: SiteAnswer) => {
    const encoding = answer.headers['content-encoding'];
    if (encoding === 'br') return brotliDecompressSync(answer.body).toString();
    if (encoding === 'gzip') return gunzipSync(answer.body).toString();
    return answer.text;
  };

  it('sends the form of a file the client weighs highest, by the q-values of Accept-Encoding', async () => {
    const cases: [string | undefined, string | undefined][] = [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip, br;q=0.5', 'gzip'],
      ['br;q=0, gzip;q=0.8', 'gzip'],
      ['*', 'br'],
      ['br;q=0, *;q=0.3', 'gzip'],
      ['identity', undefined],
      ['gzip;q=0, br;q=0', undefined],
      [undefined, undefined],
    ];
    for (const [acceptEncoding, expected] of cases) {
      const answer = await script(acceptEncoding);
      expect(answer.status, acceptEncoding).toBe(200);
      expect(answer.headers['content-encoding'], acceptEncoding).toBe(expected);
      expect(answer.headers.vary).toBe('Accept-Encoding');
      expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
      expect(decoded(answer)).toBe(SCRIPT);
    }
  });

  it('gives each form its own strong ETag and answers 304 when the client has that form', async () => {
    const [br, gzip, plain] = await Promise.all([script('br'), script('gzip'), script('identity')]);
    const tags = [br, gzip, plain].map((answer) => String(answer.headers.etag));
    for (const tag of tags) expect(tag).toMatch(/^"[0-9a-f]{64}(?:-br|-gzip)?"$/);
    expect(new Set(tags).size).toBe(3);

    const current = await get('/assets/index-BX3k9aQz.js', { 'accept-encoding': 'br', 'if-none-match': tags[0]! });
    expect(current.status).toBe(304);
    expect(current.body.length).toBe(0);
    expect(current.headers.etag).toBe(tags[0]);
    expect(current.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const otherForm = await get('/assets/index-BX3k9aQz.js', { 'accept-encoding': 'gzip', 'if-none-match': tags[0]! });
    expect(otherForm.status).toBe(200);
    expect(decoded(otherForm)).toBe(SCRIPT);
  });

  it('keeps fingerprinted assets for a year and has other files revalidated', async () => {
    expect((await script('br')).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await get('/favicon.svg', { 'accept-encoding': 'br, gzip' });
    expect(icon.status).toBe(200);
    expect(icon.text).toBe(ICON);
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    expect(icon.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    expect(icon.headers['content-encoding']).toBeUndefined();
    expect(icon.headers.etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect((await get('/favicon.svg', { 'if-none-match': String(icon.headers.etag) })).status).toBe(304);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const answer = await get('/assets/index-BX3k9aQz.js', { 'accept-encoding': 'gzip' }, 'HEAD');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(Number(answer.headers['content-length'])).toBe(gzipSync(SCRIPT).length);
    expect(answer.body.length).toBe(0);
  });

  it('keeps the security headers on files as on pages', async () => {
    for (const answer of [await script('br'), await get('/favicon.svg'), await get('/teams')]) {
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['x-frame-options']).toBe('DENY');
      expect(answer.headers['content-security-policy']).toContain("script-src 'self'");
    }
  });

  it('sends the page for every page path, made for that answer alone and asked for again each time', async () => {
    const nonces = new Set<string>();
    for (const urlPath of ['/', '/login', '/sites/abc/branches', '/teams/']) {
      const page = await get(urlPath, { 'accept-encoding': 'br, gzip' });
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['cache-control']).toBe('private, no-cache');
      expect(page.headers.etag).toBeUndefined();
      const nonce = /nonce="([^"]+)"/.exec(page.text)?.[1];
      expect(page.headers['content-security-policy']).toContain(`'nonce-${nonce}'`);
      nonces.add(nonce!);
    }
    expect(nonces.size).toBe(4);
  });

  it('tells the page whether the request carried a session cookie', async () => {
    const sessionMeta = (answer: SiteAnswer) => /name="wharf-session-cookie" content="([^"]*)"/.exec(answer.text)?.[1];
    expect(sessionMeta(await get('/login'))).toBe('absent');
    expect(sessionMeta(await get('/teams', { cookie: 'theme=dark' }))).toBe('absent');
    expect(sessionMeta(await get('/teams', { cookie: 'theme=dark; wharf_session=expired-or-not' }))).toBe('present');
    expect((await get('/teams')).headers.vary).toContain('Cookie');
  });

  it('answers 404 for a missing file, index.html by name and paths out of the build', async () => {
    for (const urlPath of ['/assets/missing-BX3k9aQz.js', '/index.html', '/assets/../../etc/passwd.txt']) {
      const answer = await get(urlPath);
      expect(answer.status, urlPath).toBe(404);
      expect(JSON.parse(answer.text).code).toBe('ROUTE_NOT_FOUND');
    }
    expect((await get('/api/v1/no-such-route')).status).toBe(404);
  });
});
