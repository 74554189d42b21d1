import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { get } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildServer } from '../../../../scripts/buildServer.mjs';
import { sha256, tarGz, uploadForm } from '../../test/archives.ts';
import { expectStatus, signedIn, type TestClient } from '../../test/client.ts';
import { freePort, testPasswordHash } from '../../test/harness.ts';
import { waitForApi } from '../../test/processes.ts';
import { logoForm } from '../../test/world.ts';

/**
 * The system calls of a real Wharf process, in the order they completed, as strace records them:
 * `fsync(23</data/blobs/files/ab>) = 0`. A call another thread interrupted is put back together.
 */
function completedCalls(trace: string) {
  const pending = new Map<string, string>();
  const calls: string[] = [];
  for (const line of trace.split('\n')) {
    const match = /^(\d+)\s+(.*)$/.exec(line);
    if (!match) continue;
    const [, pid, call] = match as unknown as [string, string, string];
    if (call.endsWith('<unfinished ...>')) pending.set(pid, call.slice(0, -'<unfinished ...>'.length).trimEnd());
    else if (call.startsWith('<...')) {
      calls.push(`${pending.get(pid) ?? ''}${call.replace(/^<\.\.\. \w+ resumed>/, '')}`);
      pending.delete(pid);
    } else calls.push(call);
  }
  return calls;
}

/** Where in the calls a blob was renamed into place, and its content and its directory flushed. */
function durabilityOf(calls: string[], finalPath: string) {
  const renamed = calls.findIndex((call) => /^rename(at2?)?\(/.test(call) && call.includes(`"${finalPath}"`));
  const source = renamed === -1 ? null : /"([^"]+)"/.exec(calls[renamed]!)![1]!;
  const synced = (file: string, from: number, to: number) =>
    calls.findIndex(
      (call, index) => index >= from && index < to && call.startsWith('fsync(') && call.includes(`<${file}>`),
    );
  return {
    renamed,
    contentSynced: source === null ? -1 : synced(source, 0, renamed),
    directorySynced: renamed === -1 ? -1 : synced(path.dirname(finalPath), renamed + 1, calls.length),
  };
}

/** The ETag of a site's home page asked for in `encoding`: a stored variant's, or one made on the fly. */
function etagServed(url: string, host: string, encoding: string) {
  return new Promise<string>((resolve, reject) => {
    const port = new URL(url).port;
    const request = get(`${url}/`, { headers: { host: `${host}:${port}`, 'accept-encoding': encoding } }, (res) => {
      res.resume();
      resolve(String(res.headers.etag));
    });
    request.on('error', reject);
  });
}

describe('durable writes of a real Wharf process, traced with strace', () => {
  let dataDir: string;
  let wharf: ChildProcess;
  let traceFile: string;
  let url: string;
  let owner: TestClient;

  beforeAll(async () => {
    if (spawnSync('strace', ['-V']).error) {
      throw new Error(
        'strace is missing: this test watches the server flush files to disk (apt-get install -y strace)',
      );
    }
    const main = await buildServer();
    dataDir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'wharf-durable-')));
    traceFile = path.join(dataDir, 'trace');
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const traced = 'fsync,fdatasync,rename,renameat,renameat2,pwrite64';
    wharf = spawn(
      'strace',
      ['-f', '-qq', '-y', '-s', '8192', '-e', `trace=${traced}`, '-o', traceFile, process.execPath, main],
      {
        env: {
          ...process.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          WHARF_URL: url,
          WHARF_SITES_URL: `http://localhost:${port}`,
          WHARF_DATA_DIR: path.join(dataDir, 'data'),
          WHARF_WORKERS: '1',
          DATABASE_URL: '',
          LOG_LEVEL: 'warn',
          WHARF_USERS: `owner:${await testPasswordHash()}`,
        },
        stdio: 'ignore',
        // Its own process group: strace and the server it runs stop together.
        detached: true,
      },
    );
    await waitForApi(url, wharf);
    owner = await signedIn(url, 'owner');
  });
  afterAll(async () => {
    if (wharf?.pid && wharf.exitCode === null) process.kill(-wharf.pid, 'SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('flushes each release file and its directory to disk before the commit that makes the release', async () => {
    const org = expectStatus(await owner.post('/api/v1/orgs', { name: 'Acme' }), 200);
    const team = expectStatus(await owner.post(`/api/v1/orgs/${org._id}/teams`, { name: 'Web' }), 200);
    const site = expectStatus(await owner.post(`/api/v1/teams/${team._id}/sites`, { name: 'durable' }), 200);
    const page = `<!doctype html><p>${'Written to disk before it is served. '.repeat(40)}</p>`;
    const releaseName = `durable-${Date.now()}`;
    const archive = await tarGz([{ name: 'index.html', content: page }]);
    expectStatus(
      await owner.request('POST', `/api/v1/sites/${site._id}/releases`, uploadForm(archive, releaseName)),
      200,
    );
    expectStatus(await owner.request('POST', `/api/v1/orgs/${org._id}/logo`, logoForm()), 200);
    // The variants are made after the release went live; the edge sends the stored one once it is recorded.
    const storedBrotli = `"${sha256(page)}-br"`;
    await vi.waitFor(async () => expect(await etagServed(url, 'durable.localhost', 'br')).toBe(storedBrotli), {
      timeout: 20_000,
      interval: 100,
    });

    const calls = completedCalls(await readFile(traceFile, 'utf8'));
    // The first write of the release's row to SQLite's log: the commit that makes it visible.
    const commit = calls.findIndex(
      (call) => call.startsWith('pwrite64(') && call.includes('.sqlite-wal>') && call.includes(releaseName),
    );
    expect(commit).toBeGreaterThan(-1);
    const hash = sha256(page);
    const blobPath = (suffix: string) => path.join(dataDir, 'data', 'blobs', 'files', hash.slice(0, 2), hash + suffix);
    const file = durabilityOf(calls, blobPath(''));
    expect(file.renamed).toBeGreaterThan(-1);
    expect(file.contentSynced).toBeGreaterThan(-1);
    expect(file.directorySynced).toBeGreaterThan(file.renamed);
    expect(file.directorySynced).toBeLessThan(commit);
    for (const suffix of ['.br', '.gz']) {
      const variant = durabilityOf(calls, blobPath(suffix));
      // Made later, and on disk before the write that records its size (the blob's row, after the rename).
      expect(variant.renamed).toBeGreaterThan(commit);
      const recorded = calls.findIndex(
        (call, index) =>
          index > variant.renamed &&
          call.startsWith('pwrite64(') &&
          call.includes('.sqlite-wal>') &&
          call.includes(hash),
      );
      expect(variant.contentSynced).toBeGreaterThan(-1);
      expect(variant.directorySynced).toBeGreaterThan(variant.renamed);
      expect(recorded).toBeGreaterThan(variant.directorySynced);
    }
    const logo = durabilityOf(calls, path.join(dataDir, 'data', 'blobs', 'logos', 'orgs', org._id));
    expect(logo.contentSynced).toBeGreaterThan(-1);
    expect(logo.directorySynced).toBeGreaterThan(logo.renamed);
  });
});
