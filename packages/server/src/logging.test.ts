import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { io, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sha256 } from '../test/archives.ts';
import { expectStatus, signedIn } from '../test/client.ts';
import { freePort, startTestServer, type TestServer, testPasswordHash } from '../test/harness.ts';
import { bundledServer, siteGet, startWharf, stopWharf, type WharfProcess, waitForApi } from '../test/processes.ts';
import { uploadRelease } from '../test/world.ts';
import { blobKey } from './releaseFiles/blobKeys.ts';

/** A site whose page's stored file was lost from the disk: serving it fails. */
async function siteWithLostFile(url: string, dataDir: string) {
  const owner = await signedIn(url, 'owner');
  const org = expectStatus(await owner.post('/api/v1/orgs', { name: 'Acme' }), 200);
  const team = expectStatus(await owner.post(`/api/v1/orgs/${org._id}/teams`, { name: 'Web' }), 200);
  const site = expectStatus(await owner.post(`/api/v1/teams/${team._id}/sites`, { name: 'lost' }), 200);
  const content = `<!doctype html><title>lost</title>${'x'.repeat(100)}`;
  await uploadRelease(owner, site._id, 'lost', ['main'], [{ name: 'index.html', content }]);
  await rm(path.join(dataDir, 'blobs', blobKey(sha256(content))));
  return { owner, org, site };
}

/**
 * A request whose answer fails: a 500, or a cut connection when the headers had gone already (the
 * client must not take a half answer for a whole one).
 */
async function failedGet(port: number, host: string, urlPath: string) {
  const answer = await siteGet(port, host, urlPath).catch(() => ({ status: 'cut' }));
  expect([500, 'cut']).toContain(answer.status);
}

const jsonLines = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));

describe('unexpected failures are logged with host and path', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ captureLog: true });
  });
  afterAll(() => server.close());

  it('logs a site answer that failed (a stored file missing on disk)', async () => {
    const { site } = await siteWithLostFile(server.url, server.dataDir);
    const port = new URL(server.url).port;
    const host = `${site.name}.localhost:${port}`;
    await failedGet(Number(port), host, '/?from=test');
    const logged = jsonLines(server.logLines.join('')).find((line) => line.msg === 'site request failed');
    expect(logged).toMatchObject({ level: 50, host, path: '/?from=test', err: { code: 'ENOENT' } });
  });

  it('logs a real-time handler that failed, and answers the browser without the details', async () => {
    const owner = await signedIn(server.url, 'owner');
    const org = expectStatus(await owner.post('/api/v1/orgs', { name: 'Live' }), 200);
    const socket: Socket = io(server.url, {
      path: '/socket.io',
      transports: ['websocket'],
      extraHeaders: { cookie: owner.cookieHeader },
      reconnection: false,
    });
    await new Promise((resolve, reject) => {
      socket.on('connect', () => resolve(undefined));
      socket.on('connect_error', reject);
    });
    // A database fault under the check of who may join the room.
    await sql`alter table members rename to members_away`.execute(server.app.db);
    try {
      const answer = await socket.emitWithAck('join', { room: 'org', id: org._id });
      expect(answer).toEqual({ ok: false, message: 'Something went wrong on our side; it has been logged' });
    } finally {
      await sql`alter table members_away rename to members`.execute(server.app.db);
      socket.close();
    }
    const logged = jsonLines(server.logLines.join('')).find((line) => line.msg === 'real-time handler failed');
    expect(logged).toMatchObject({
      level: 50,
      host: new URL(server.url).host,
      path: '/socket.io',
      event: 'join',
      err: { message: expect.stringContaining('members') },
    });
  });
});

describe('the logs of Wharf as `npm start` runs it', () => {
  let dataDir: string;
  let wharf: WharfProcess | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'wharf-logs-'));
  });
  afterEach(async () => {
    if (wharf) await stopWharf(wharf);
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('has each cluster worker log its failures as JSON on standard output', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    wharf = await startWharf(dataDir, port, {
      WHARF_WORKERS: '2',
      WHARF_USERS: `owner:${await testPasswordHash()}`,
    });
    await waitForApi(url);
    const { site } = await siteWithLostFile(url, dataDir);
    const host = `${site.name}.localhost:${port}`;
    await failedGet(port, host, '/');
    const logged = await vi.waitFor(
      () => {
        const line = jsonLines(wharf!.stdout()).find((line) => line.msg === 'site request failed');
        expect(line).toMatchObject({ level: 50, host, path: '/', err: { code: 'ENOENT' } });
        return line as { pid: number };
      },
      { timeout: 20_000, interval: 50 },
    );
    expect(logged.pid).not.toBe(wharf.child.pid);
  });

  it('prints readable lines rather than JSON in a terminal, at LOG_LEVEL', async () => {
    const script = spawnSync('script', ['--version']);
    if (script.error)
      throw new Error('This test needs `script` (util-linux, Debian package bsdutils) to run Wharf in a terminal');
    const port = await freePort();
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(await bundledServer())}`;
    const terminal = spawn('script', ['-qfec', command, '/dev/null'], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        WHARF_WORKERS: '1',
        WHARF_DATA_DIR: dataDir,
        DATABASE_URL: '',
        LOG_LEVEL: 'info',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    terminal.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    try {
      await vi.waitFor(() => expect(output).toContain('Wharf is running'), { timeout: 20_000, interval: 50 });
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the colours of a terminal
      const plain = output.replace(/\u001b\[[0-9;]*m/g, '');
      expect(plain).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO \(\d+\): Wharf is running/m);
      expect(plain).not.toContain('{"level"');
    } finally {
      terminal.kill('SIGKILL');
    }
  });
});

describe('the request log', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ captureLog: true });
  });
  afterAll(() => server.close());

  it('has one line per request, as it is answered, with its status and time', async () => {
    const probe = `probe-${Date.now()}`;
    expect((await fetch(`${server.url}/api/v1/system/info?${probe}`)).status).toBe(200);
    const lines = await vi.waitFor(() => {
      const about = jsonLines(server.logLines.join('')).filter((line) => line.req?.url?.includes(probe));
      expect(about.length).toBeGreaterThan(0);
      return about;
    });
    expect(lines).toEqual([
      expect.objectContaining({
        level: 30,
        msg: 'request completed',
        req: expect.objectContaining({ method: 'GET', remoteAddress: '127.0.0.1' }),
        res: { statusCode: 200 },
        responseTime: expect.any(Number),
      }),
    ]);
  });
});
