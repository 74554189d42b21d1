import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ArchiveEntry, tarGz, uploadForm } from '../test/archives.ts';
import { expectStatus, signedIn } from '../test/client.ts';
import { freePort, testPasswordHash } from '../test/harness.ts';
import { exited, isAlive, siteGet, startWharf, stopWharf, type WharfProcess, waitForApi } from '../test/processes.ts';
import { wholeBody } from '../test/wholeAnswer.ts';

/** Larger than what the kernel buffers on loopback for a reader that does not read: the answer stays in flight. */
const BIG = randomBytes(40 * 1024 * 1024);
const BIG_SHA = createHash('sha256').update(BIG).digest('hex');

interface Download {
  status: number;
  /** Reads the rest: whether the whole body came, its size and sha256. */
  finish(): Promise<{ complete: boolean; bytes: number; sha: string }>;
}

/** A download that has its headers and then reads nothing until `finish`, as a slow client would. */
function startDownload(port: number, host: string, urlPath: string) {
  return new Promise<Download>((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: urlPath, headers: { host }, agent: false }, (res) => {
      res.pause();
      const finish = () =>
        new Promise<{ complete: boolean; bytes: number; sha: string }>((done) => {
          const hash = createHash('sha256');
          let bytes = 0;
          res.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            hash.update(chunk);
          });
          res.on('error', () => {});
          res.on('close', () => done({ complete: res.complete, bytes, sha: hash.digest('hex') }));
          res.resume();
        });
      resolve({ status: res.statusCode ?? 0, finish });
    });
    request.on('error', reject);
  });
}

/** A keep-alive connection that answered once and now waits for another request; resolves when it closes. */
async function idleConnection(port: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const socket = await new Promise<import('node:net').Socket>((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: '/healthz', agent }, (res) => {
      wholeBody(res).then(() => resolve(request.socket!), reject);
    });
    request.on('error', reject);
  });
  return new Promise<void>((resolve) => socket.once('close', () => resolve()));
}

const health = async (port: number, name: 'healthz' | 'readyz', host = `127.0.0.1:${port}`) => {
  const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: `/${name}`, headers: { host }, agent: false }, (res) => {
      wholeBody(res).then((body) => resolve({ status: res.statusCode ?? 0, text: body.toString() }), reject);
    });
    request.on('error', reject);
  });
  return { status: answer.status, body: JSON.parse(answer.text) };
};

/**
 * Polls /readyz until it answers 503. A connection may be reset meanwhile: a cluster worker with
 * nothing in flight stops at once, and a connection handed to it that very moment goes with it.
 */
/**
 * Waits until every process of a cluster has finished starting: the API answers as soon as one
 * worker does, while another may still rightly answer /readyz with 503 "starting". A run of
 * answers in a row, more than there are workers, comes from all of them.
 */
async function untilServing(port: number, host?: string) {
  let inARow = 0;
  for (let attempt = 0; attempt < 400 && inARow < 6; attempt++) {
    const answer = await health(port, 'readyz', host).catch(() => null);
    inARow = answer?.status === 200 ? inARow + 1 : 0;
    if (inARow === 0) await sleep(50);
  }
  if (inARow < 6) throw new Error('/readyz never answered 200 from every process');
}

async function untilDraining(port: number) {
  for (let attempt = 0; attempt < 200; attempt++) {
    const answer = await health(port, 'readyz').catch(() => null);
    if (answer?.status === 503) return answer;
    await sleep(50);
  }
  throw new Error('/readyz never answered 503 after SIGTERM');
}

let dataDir: string;
let siteName: string;

/** One data directory for every process of this file: a site whose release has a large file and its own /healthz. */
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'wharf-shutdown-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const setup = await startWharf(dataDir, port, {
    WHARF_WORKERS: '1',
    WHARF_USERS: `owner:${await testPasswordHash()}`,
  });
  try {
    await waitForApi(url);
    const owner = await signedIn(url, 'owner');
    const org = expectStatus(await owner.post('/api/v1/orgs', { name: 'Acme' }), 200);
    const team = expectStatus(await owner.post(`/api/v1/orgs/${org._id}/teams`, { name: 'Web' }), 200);
    const site = expectStatus(await owner.post(`/api/v1/teams/${team._id}/sites`, { name: 'downloads' }), 200);
    siteName = site.name;
    const files: ArchiveEntry[] = [
      { name: 'index.html', content: 'home' },
      { name: 'healthz', content: 'the site’s own health page' },
      { name: 'big.bin', content: BIG },
    ];
    expectStatus(
      await owner.request(
        'POST',
        `/api/v1/sites/${site._id}/releases`,
        uploadForm(await tarGz(files), 'big', ['main']),
      ),
      200,
    );
  } finally {
    setup.child.kill('SIGTERM');
  }
  expect(await exited(setup.child), setup.stderr()).toBe(0);
}, 120_000);
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe.each([
  { mode: 'alone', workers: '1' },
  { mode: 'in a cluster', workers: '2' },
])('stopping Wharf $mode (WHARF_WORKERS=$workers)', ({ workers }) => {
  let wharf: WharfProcess | undefined;

  afterEach(async () => {
    if (wharf) await stopWharf(wharf);
  });

  async function start(env: Record<string, string> = {}) {
    const port = await freePort();
    wharf = await startWharf(dataDir, port, { WHARF_WORKERS: workers, ...env });
    await waitForApi(`http://127.0.0.1:${port}`, wharf.child);
    return { port, child: wharf.child, host: `${siteName}.localhost:${port}` };
  }

  it('answers /healthz and /readyz on the console host and any host not a site’s, never shadowing a site’s paths', async () => {
    const sitesPort = await freePort();
    const { port, host } = await start({ WHARF_SITES_PORT: String(sitesPort) });
    await untilServing(port);
    await untilServing(sitesPort, `10.0.0.5:${sitesPort}`);
    expect(await health(port, 'healthz')).toEqual({ status: 200, body: { status: 'alive' } });
    // Serving every role, and each dependency's state: the database and the blob store (and Redis, with REDIS_URL).
    const serving = {
      status: 200,
      body: {
        status: 'serving',
        roles: { api: 'ready', edge: 'ready', worker: 'ready' },
        checks: { database: 'ok', storage: 'ok' },
      },
    };
    expect(await health(port, 'readyz')).toEqual(serving);
    expect(await health(port, 'readyz', `localhost:${port}`)).toEqual(serving);
    expect(await health(sitesPort, 'readyz', `10.0.0.5:${sitesPort}`)).toEqual(serving);
    expect(await siteGet(port, host, '/healthz')).toEqual({ status: 200, text: 'the site’s own health page' });
    expect((await siteGet(port, host, '/readyz')).status).toBe(404);
    expect(await siteGet(sitesPort, host, '/healthz')).toEqual({ status: 200, text: 'the site’s own health page' });
  });

  it('on SIGTERM answers 503 on /readyz, closes idle connections, finishes a slow download, then exits', async () => {
    const { port, child, host } = await start();
    const idleClosed = idleConnection(port);
    const download = await startDownload(port, host, '/big.bin');
    expect(download.status).toBe(200);

    child.kill('SIGTERM');
    expect(await untilDraining(port)).toEqual({ status: 503, body: { status: 'draining' } });
    expect((await health(port, 'healthz')).status).toBe(200);
    await idleClosed;
    // Longer than the fixed 5 s after which a stopping server used to cut downloads.
    await sleep(6_000);
    expect(isAlive(child)).toBe(true);

    expect(await download.finish()).toEqual({ complete: true, bytes: BIG.length, sha: BIG_SHA });
    expect(await exited(child)).toBe(0);
  }, 60_000);

  it('cuts what is still in flight at the end of WHARF_SHUTDOWN_GRACE_SECONDS and exits', async () => {
    const { port, child, host } = await start({ WHARF_SHUTDOWN_GRACE_SECONDS: '3' });
    const download = await startDownload(port, host, '/big.bin');

    child.kill('SIGTERM');
    await untilDraining(port);
    expect(await exited(child)).toBe(0);
    const cut = await download.finish();
    expect(cut.complete).toBe(false);
    expect(cut.bytes).toBeLessThan(BIG.length);
  }, 60_000);
});
