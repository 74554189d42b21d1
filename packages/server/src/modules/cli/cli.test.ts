import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness.ts';

const run = promisify(execFile);
const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));

/** The files of a gzipped tar, by name. */
async function filesOf(tarball: Buffer) {
  const files = new Map<string, { content: Buffer; mode: number }>();
  const extract = tar.extract();
  Readable.from(gunzipSync(tarball)).pipe(extract);
  for await (const entry of extract) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    files.set(entry.header.name, { content: Buffer.concat(chunks), mode: entry.header.mode ?? 0 });
  }
  return files;
}

async function download(server: TestServer, name: string, headers: Record<string, string> = {}) {
  const answer = await fetch(`${server.url}/cli/${name}`, { headers });
  return { answer, body: Buffer.from(await answer.arrayBuffer()) };
}

describe('the CLI served by the installation', () => {
  let server: TestServer;
  let outside: string;

  beforeAll(async () => {
    server = await startTestServer();
    outside = await mkdtemp(path.join(os.tmpdir(), 'wharf-cli-download-'));
  });
  afterAll(async () => {
    await server?.close();
    if (outside) await rm(outside, { recursive: true, force: true });
  });

  it('serves /cli/wharf.mjs: one script of the installation’s version, revalidated by its ETag', async () => {
    const { answer, body } = await download(server, 'wharf.mjs');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(answer.headers.get('cache-control')).toBe('public, no-cache');
    expect(answer.headers.get('x-wharf-version')).toBe(version);
    expect(Number(answer.headers.get('content-length'))).toBe(body.length);
    expect(body.subarray(0, 20).toString()).toBe('#!/usr/bin/env node\n');
    const etag = answer.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);

    const again = await download(server, 'wharf.mjs', { 'if-none-match': etag });
    expect([again.answer.status, again.body.length]).toEqual([304, 0]);
    const head = await fetch(`${server.url}/cli/wharf.mjs`, { method: 'HEAD' });
    expect([head.status, head.headers.get('etag')]).toEqual([200, etag]);

    // It runs on plain Node with nothing beside it, and says which version it is.
    const file = path.join(outside, 'wharf.mjs');
    await writeFile(file, body);
    const { stdout } = await run(process.execPath, [file, '--version'], { cwd: outside, env: { HOME: outside } });
    expect(stdout.trim()).toBe(version);
  });

  it('serves /cli/wharf-cli.tgz: an npm package whose bin `wharf` is that script, with no dependencies', async () => {
    const { answer, body } = await download(server, 'wharf-cli.tgz');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/gzip');
    expect(answer.headers.get('cache-control')).toBe('public, no-cache');
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="wharf-cli-${version}.tgz"`);
    expect(answer.headers.get('x-wharf-version')).toBe(version);
    const files = await filesOf(body);
    expect([...files.keys()].sort()).toEqual(['package/README.md', 'package/package.json', 'package/wharf.mjs']);
    const manifest = JSON.parse(files.get('package/package.json')!.content.toString());
    expect(manifest).toMatchObject({ name: 'wharf-cli', version, bin: { wharf: './wharf.mjs' } });
    expect(manifest.dependencies).toBeUndefined();
    const script = await download(server, 'wharf.mjs');
    const bin = files.get('package/wharf.mjs')!;
    expect([bin.content.equals(script.body), bin.mode]).toEqual([true, 0o755]);

    const again = await download(server, 'wharf-cli.tgz', { 'if-none-match': answer.headers.get('etag')! });
    expect(again.answer.status).toBe(304);
    // The same bytes each time: every node of an installation gives the same ETag.
    expect((await download(server, 'wharf-cli.tgz')).body.equals(body)).toBe(true);
  });

  it('answers 404 with a code for any other file under /cli/', async () => {
    const answer = await fetch(`${server.url}/cli/wharf.js`);
    expect([answer.status, ((await answer.json()) as { code: string }).code]).toEqual([404, 'ROUTE_NOT_FOUND']);
  });
});
