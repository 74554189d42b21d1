import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync, zstdDecompressSync } from 'node:zlib';
import { expectStatus, siteRequest } from '@wharf/server/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { exitCodes } from '../src/failures.ts';
import { runInProcess } from './inProcess.ts';
import { FILE_ROUTE, type RecordingProxy, startRecordingProxy } from './recordingProxy.ts';
import { siteFolder } from './siteFolder.ts';
import { startUploadWorld, type UploadWorld } from './uploadWorld.ts';
import { runWharf } from './wharfProcess.ts';

let world: UploadWorld;
let proxy: RecordingProxy;

beforeAll(async () => {
  world = await startUploadWorld();
  proxy = await startRecordingProxy(world.server.url);
});
afterAll(async () => {
  await proxy.close();
  await world.server.close();
});
beforeEach(() => {
  proxy.requests.length = 0;
  proxy.refuseDeploys = null;
  proxy.replaceBase = null;
  proxy.failUploads = 0;
});

const connection = () => ['--url', proxy.url, '--site', world.siteId, '--token', world.siteToken];
const fileUploads = () => proxy.requests.filter((request) => FILE_ROUTE.test(request.path));

/** The manifest the last upload posted, with its body decoded. */
function manifestSent() {
  const request = proxy.requests.findLast((recorded) => recorded.body !== undefined)!;
  const body = request.contentEncoding === 'zstd' ? zstdDecompressSync(request.body!) : request.body!;
  return { ...request, json: JSON.parse(body.toString()) };
}

/** What a branch URL serves, asked by host name as a browser would. */
async function served(url: string, pathname = '/') {
  const port = Number(new URL(world.server.url).port);
  return (await siteRequest(port, new URL(url).host, pathname)).text;
}

describe('wharf upload, against a real server', () => {
  it('uploads a folder, its files together in one request, then only the file that changed', async () => {
    const folder = await siteFolder({
      'index.html': '<h1>Docs</h1>',
      'assets/app.js': 'console.log("v1")',
      '.wharf.yml': 'forms:\n  - name: contact\n    type: db\n',
      '.git/HEAD': 'ref: refs/heads/main',
    });
    const first = await runWharf(['upload', folder, ...connection(), '--release', 'first', '--json']);
    expect(first.code).toBe(0);
    const result = first.json();
    expect(result).toMatchObject({
      ok: true,
      method: 'incremental',
      release: { name: 'first', fileCount: 3 },
      uploaded: { files: 3 },
      branches: [{ name: 'main', url: expect.stringContaining(world.siteName) }],
    });
    // One tar of the three, compressed: less than its 512-byte headers, the padding of each file to
    // 512 bytes, and its end.
    expect(fileUploads()).toEqual([
      { method: 'POST', path: expect.stringMatching(/\/files$/), bytes: expect.any(Number), contentEncoding: 'zstd' },
    ]);
    expect(fileUploads()[0]!.bytes).toBeLessThan(3 * 1024 + 1024);
    const firstManifest = manifestSent();
    expect(firstManifest.contentEncoding).toBe('zstd');
    expect(firstManifest.json).toMatchObject({ files: expect.any(Array) });
    expect(firstManifest.json.base).toBeUndefined();
    expect(result.sentBytes).toBe(firstManifest.bytes + fileUploads()[0]!.bytes);
    expect(await served(result.branches[0].url)).toBe('<h1>Docs</h1>');
    const release = expectStatus(await world.owner.get(`/api/v1/releases/${result.release._id}`), 200);
    expect(release.forms).toEqual([{ name: 'contact', type: 'db' }]);

    proxy.requests.length = 0;
    const changed = 'console.log("v2, a little longer")';
    await writeFile(path.join(folder, 'assets/app.js'), changed);
    const second = (await runWharf(['upload', folder, ...connection(), '--release', 'second', '--json'])).json();
    expect(second).toMatchObject({ ok: true, uploaded: { files: 1, bytes: changed.length } });
    expect(fileUploads()).toEqual([
      {
        method: 'PUT',
        path: expect.stringMatching(/\/files\/[0-9a-f]{64}$/),
        bytes: expect.any(Number),
        contentEncoding: 'zstd',
      },
    ]);
    // The manifest names only what changed since the release the branch serves.
    const manifest = manifestSent();
    expect(manifest.json).toMatchObject({
      files: [{ path: 'assets/app.js', size: changed.length }],
      removed: [],
      base: { release: result.release._id },
    });
    expect(second.sentBytes).toBe(manifest.bytes + fileUploads()[0]!.bytes);
    // The release's file list, which the manifest is relative to, comes back compressed.
    expect(proxy.requests.find((request) => request.path.includes('/deploys/base'))).toMatchObject({
      method: 'GET',
      answerEncoding: 'zstd',
    });
    expect(await served(second.branches[0].url, '/assets/app.js')).toBe(changed);
  });

  it('sends a batch of images in zstd too, which takes out the tar framing around their bytes', async () => {
    // Photos do not compress; each file still costs the tar a 512-byte header and its padding.
    const images = Object.fromEntries(
      Array.from({ length: 20 }, (_, index) => [`img/photo-${index}.jpg`, randomBytes(1000 + index)]),
    );
    const folder = await siteFolder({ 'index.html': '<img src="img/photo-0.jpg">', ...images });
    const run = await runWharf(['upload', folder, ...connection(), '--release', 'photos', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const imageBatch = fileUploads().find((request) => request.bytes > 20_000)!;
    expect(imageBatch.contentEncoding).toBe('zstd');
    const imageBytes = Object.values(images).reduce((sum, bytes) => sum + bytes.length, 0);
    // The tar is 20 headers and paddings more (over 15 kB); compressed, each entry costs under a
    // hundred bytes, most of them its name, the file's hash.
    expect(imageBatch.bytes).toBeLessThan(imageBytes + 20 * 100);
    const port = Number(new URL(world.server.url).port);
    const photo = await siteRequest(port, new URL(run.json().branches[0].url).host, '/img/photo-7.jpg');
    expect(photo.body.equals(images['img/photo-7.jpg']!)).toBe(true);
  });

  it('reads its settings from WHARF_* variables and the branch from CI, and prints the branch URL', async () => {
    const folder = await siteFolder({ 'index.html': '<h1>Login</h1>' });
    const run = await runWharf(['upload', folder], {
      env: {
        WHARF_URL: proxy.url,
        WHARF_SITE: world.siteId,
        WHARF_TOKEN: world.siteToken,
        CI: 'true',
        GITHUB_REF_NAME: 'feature/login',
      },
    });
    expect(run.code).toBe(0);
    const url = run.stdout.match(/feature\/login\s+(http\S+)/)?.[1];
    expect(url).toContain(`feature-login.${world.siteName}.`);
    expect(await served(url!)).toBe('<h1>Login</h1>');
    expect(run.stdout).toMatch(/^Release "Upload of .+ UTC" is live: 1 file/);
    // Not a terminal: plain lines a CI log keeps, no bar redrawn with carriage returns.
    expect(run.stderr).toContain('for feature/login (from GITHUB_REF_NAME)');
    expect(run.stderr).toContain(`Read 1 file (14 B) from ${folder}`);
    expect(run.stderr).not.toContain('\r');
  });

  it('lists the problems of the release’s _redirects and _headers with file and line, in text and in --json', async () => {
    const folder = await siteFolder({
      'index.html': '<h1>Rules</h1>',
      _redirects: '/old /new\n/broken\n/a /b\n/b /a\n',
      _headers: '/*\n  no colon here\n',
    });
    const text = await runWharf(['upload', folder, ...connection(), '--release', 'with rules']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      'Rules: 2 errors and 1 warning in _redirects and _headers (lines with errors are left out):',
    );
    expect(text.stdout).toMatch(/^ {2}_redirects:2: error: .*from/m);
    expect(text.stdout).toMatch(/^ {2}_redirects:3: warning: .*loop/m);
    expect(text.stdout).toMatch(/^ {2}_headers:2: error: .*colon/m);
    const json = (await runWharf(['upload', folder, ...connection(), '--release', 'again', '--json'])).json();
    expect(json.ruleProblems).toEqual(
      expect.arrayContaining([expect.objectContaining({ file: '_redirects', line: 2, severity: 'error' })]),
    );
    expect(json.ruleProblems).toHaveLength(3);
  });

  it('sends the whole manifest when the release it was relative to is gone', async () => {
    const folder = await siteFolder({ 'index.html': '<h1>Gone</h1>', 'keep.txt': 'keep' });
    proxy.replaceBase = {
      encodings: ['gzip'],
      release: { _id: 'deleted-release', files: [['keep.txt', '0'.repeat(16)]] },
    };
    const run = await runWharf(['upload', folder, ...connection(), '--branch', 'gone', '--json']);
    expect(run.code).toBe(0);
    expect(run.json()).toMatchObject({ ok: true, release: { fileCount: 2 } });
    const manifests = proxy.requests.filter((request) => request.body !== undefined);
    expect(manifests.map((request) => request.contentEncoding)).toEqual(['gzip', 'gzip']);
    const [relative, whole] = manifests.map((request) => JSON.parse(gunzipSync(request.body!).toString()));
    expect(relative.base.release).toBe('deleted-release');
    expect(whole.base).toBeUndefined();
    expect(whole.files).toHaveLength(2);
  });

  it('sends a tar.gz to a server without incremental deploys', async () => {
    proxy.refuseDeploys = {
      status: 404,
      code: 'ROUTE_NOT_FOUND',
      message: `No route POST /api/v1/sites/${world.siteId}/deploys`,
    };
    const files = {
      'index.html': '<h1>Old server</h1>',
      'deep/er/page.html': 'page',
      'a.txt': 'same',
      'b.txt': 'same',
    };
    const folder = await siteFolder(files);
    const run = await runWharf(['upload', folder, ...connection(), '--branch', 'legacy', '--json']);
    expect(run.code).toBe(0);
    const result = run.json();
    expect(result).toMatchObject({ method: 'archive', release: { fileCount: 4 }, uploaded: { files: 4 } });
    expect(proxy.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      `GET /api/v1/sites/${world.siteId}/deploys/base?branch=legacy`,
      `POST /api/v1/sites/${world.siteId}/deploys`,
      `POST /api/v1/sites/${world.siteId}/releases`,
    ]);
    expect(proxy.requests[2]!.bytes).toBe(result.sentBytes);
    expect(await served(result.branches[0].url)).toBe('<h1>Old server</h1>');
    // Pretty URLs (on for every new site): page.html is served at /deep/er/page.
    expect(await served(result.branches[0].url, '/deep/er/page')).toBe('page');
  });

  it('gives the branches an expiry with --expires, by deploy or by archive, and clears it on an upload without', async () => {
    const folder = await siteFolder({ 'index.html': '<h1>Preview</h1>' });
    const branchExpiry = async (name: string) => {
      const branches = expectStatus(await world.owner.get(`/api/v1/sites/${world.siteId}/branches`), 200);
      return branches.find((branch: { name: string }) => branch.name === name).expiresAt as string | null;
    };
    const startedAt = Date.now();
    const preview = (
      await runWharf(['upload', folder, ...connection(), '--branch', 'pr-7', '--expires', '2h', '--json'])
    ).json();
    expect(preview.branches).toEqual([
      expect.objectContaining({ name: 'pr-7', expiresAt: await branchExpiry('pr-7') }),
    ]);
    expect(Date.parse(preview.branches[0].expiresAt) - startedAt).toBeGreaterThanOrEqual(2 * 3600_000);
    expect(Date.parse(preview.branches[0].expiresAt) - Date.now()).toBeLessThanOrEqual(2 * 3600_000);

    proxy.refuseDeploys = { status: 404, code: 'ROUTE_NOT_FOUND', message: 'No deploys here' };
    const archived = await runWharf(['upload', folder, ...connection(), '--branch', 'pr-8', '--json'], {
      env: { WHARF_EXPIRES: '3d' },
    });
    expect(archived.json()).toMatchObject({ method: 'archive' });
    expect(Date.parse((await branchExpiry('pr-8'))!) - Date.now()).toBeGreaterThan(2.9 * 86_400_000);
    proxy.refuseDeploys = null;

    expect((await runWharf(['upload', folder, ...connection(), '--branch', 'pr-7'])).code).toBe(0);
    expect(await branchExpiry('pr-7')).toBeNull();
    const toMain = await runWharf(['upload', folder, ...connection(), '--branch', 'main', '--expires', '1d', '--json']);
    expect(toMain.code).toBe(exitCodes.refused);
    expect(toMain.json().error).toContain('The main branch (main) cannot expire');
  });

  it('sends a tar.gz when the manifest is longer than the server takes in one request', async () => {
    proxy.refuseDeploys = { status: 413, code: 'BODY_TOO_LARGE', message: 'Request body is too large' };
    const folder = await siteFolder({ 'index.html': '<h1>Many files</h1>' });
    const run = await runInProcess(['upload', folder, ...connection(), '--branch', 'many']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('This server refused a manifest this long: sending the whole folder as a tar.gz');
    expect(proxy.requests.at(-1)).toMatchObject({ method: 'POST', path: `/api/v1/sites/${world.siteId}/releases` });
  });

  it('reports a refused token even when the server answers before the archive is sent', async () => {
    proxy.refuseDeploys = { status: 404, code: 'ROUTE_NOT_FOUND', message: 'No route' };
    const folder = await siteFolder({ 'big.bin': Buffer.alloc(8 * 1024 * 1024, 7) });
    const run = await runInProcess(['upload', folder, ...connection(), '--token', 'wharf_site_unknown']);
    expect(run.code).toBe(exitCodes.badToken);
    expect(run.stderr).toContain('does not accept the token');
  });

  it('tries a failing upload again and finishes', async () => {
    proxy.failUploads = 2;
    const folder = await siteFolder({ 'retry.html': `retried ${Date.now()}` });
    const run = await runInProcess(['upload', folder, ...connection()]);
    expect(run.code).toBe(0);
    expect(run.stderr.match(/503 Restarting; trying again in/g)).toHaveLength(2);
    expect(fileUploads()).toHaveLength(3);
  });
});

describe('wharf upload exit codes', () => {
  it.each([
    [
      'a token the server does not know',
      () => ['--token', 'wharf_site_unknown'],
      exitCodes.badToken,
      'does not accept the token',
    ],
    [
      'a site token of another site',
      () => ['--site', 'another-site'],
      exitCodes.badToken,
      'This token belongs to another site',
    ],
    [
      'a site that does not exist',
      () => ['--site', 'no-such-site', '--token', world.apiToken],
      exitCodes.unknownSite,
      'There is no site no-such-site',
    ],
  ])('refuses %s', async (_, overrides, code, message) => {
    const folder = await siteFolder({ 'index.html': 'x' });
    const run = await runWharf(['upload', folder, ...connection(), ...overrides()]);
    expect({ code: run.code, stderr: run.stderr }).toMatchObject({ code, stderr: expect.stringContaining(message) });
  });

  it('refuses an empty folder and a missing one before calling the server', async () => {
    const empty = await siteFolder({ '.git/HEAD': 'only version control' });
    const run = await runWharf(['upload', empty, ...connection()]);
    expect(run.code).toBe(exitCodes.badFolder);
    expect(run.stderr).toContain(`wharf: ${empty} holds no files to upload`);
    const missing = await runWharf(['upload', path.join(empty, 'dist'), ...connection()]);
    expect(missing.code).toBe(exitCodes.badFolder);
    expect(missing.stderr).toContain('There is no folder');
    expect(proxy.requests).toEqual([]);
  });

  it("shows the server's reason when it refuses the release", async () => {
    const folder = await siteFolder({ 'index.html': 'x' });
    const run = await runWharf(['upload', folder, ...connection(), '--branch', 'b'.repeat(1001), '--json']);
    expect(run.code).toBe(exitCodes.refused);
    expect(run.json()).toEqual({
      ok: false,
      exitCode: exitCodes.refused,
      error: 'The server refused the release: branches.0: Max length is 1000',
    });
  });

  it('answers 2 to bad usage', async () => {
    const run = await runWharf(['upload', '--url', proxy.url]);
    expect(run.code).toBe(exitCodes.usage);
    expect(run.stderr).toContain('Which folder?');
  });
});
