import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../../scripts/buildServer.mjs';
import { expectStatus, signedIn, type TestClient } from '../test/client.ts';
import { freePort, TEST_PASSWORD } from '../test/harness.ts';
import { uploadRelease } from '../test/world.ts';
import { hashPassword } from './lib/passwords.ts';

// Wharf as `npm start` runs it: the server bundled into one module for plain Node.
const MAIN = await buildServer();

/** Wharf as `npm start` runs it, in a child process, with `env` added. */
function startWharf(dataDir: string, port: number, env: Record<string, string>) {
  const child = spawn(process.execPath, ['--enable-source-maps', MAIN], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      WHARF_URL: `http://127.0.0.1:${port}`,
      WHARF_SITES_URL: `http://localhost:${port}`,
      WHARF_DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return { child, stderr: () => stderr };
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });

/** A site request on a connection of its own: the cluster hands each connection to the next worker. */
function siteGet(port: number, host: string, urlPath = '/') {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: urlPath, headers: { host }, agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    request.on('error', reject);
  });
}

async function waitForApi(url: string) {
  for (let attempt = 0; attempt < 200; attempt++) {
    const answer = await fetch(`${url}/api/v1/system/info`).catch(() => null);
    if (answer?.ok) return;
    await sleep(100);
  }
  throw new Error('Wharf did not start');
}

describe('Wharf with worker processes (WHARF_WORKERS)', () => {
  let dataDir: string;
  let port: number;
  let url: string;
  let wharf: ReturnType<typeof startWharf>;
  let owner: TestClient;
  let site: { _id: string; name: string };
  let host: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'wharf-cluster-'));
    port = await freePort();
    url = `http://127.0.0.1:${port}`;
    wharf = startWharf(dataDir, port, {
      WHARF_WORKERS: '2',
      WHARF_USERS: `owner:${await hashPassword(TEST_PASSWORD)}`,
    });
    await waitForApi(url);
    owner = await signedIn(url, 'owner');
    const org = expectStatus(await owner.post('/api/v1/orgs', { name: 'Acme' }), 200);
    const team = expectStatus(await owner.post(`/api/v1/orgs/${org._id}/teams`, { name: 'Web' }), 200);
    site = expectStatus(await owner.post(`/api/v1/teams/${team._id}/sites`, { name: 'clustered' }), 200);
    host = `${site.name}.localhost:${port}`;
  });
  afterAll(async () => {
    if (wharf.child.exitCode === null) wharf.child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('serves a release from every worker on the very next request after its upload', async () => {
    await uploadRelease(owner, site._id, 'first', ['main'], [{ name: 'index.html', content: 'first' }]);
    const first = await Promise.all(Array.from({ length: 6 }, () => siteGet(port, host)));
    expect(first.map((answer) => answer.text)).toEqual(Array(6).fill('first'));
    await uploadRelease(owner, site._id, 'second', ['main'], [{ name: 'index.html', content: 'second' }]);
    const second = await Promise.all(Array.from({ length: 6 }, () => siteGet(port, host)));
    expect(second.map((answer) => answer.text)).toEqual(Array(6).fill('second'));
  });

  it('confirms many parallel changes with the workers without piling up listeners', async () => {
    const releases = expectStatus(await owner.get(`/api/v1/sites/${site._id}/releases`), 200);
    const releaseId = releases.items[0]._id;
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        owner.post(`/api/v1/sites/${site._id}/branches`, { name: `parallel-${i}`, releaseId }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(100).fill(200));
    expect(wharf.stderr()).not.toContain('MaxListenersExceededWarning');
  });

  it('counts the requests of all workers in /metrics', async () => {
    for (let i = 0; i < 10; i++) await siteGet(port, host, '/missing');
    let metrics = '';
    for (let attempt = 0; attempt < 50 && !/status="4xx"} (1\d|[2-9]\d)/.test(metrics); attempt++) {
      await sleep(100);
      metrics = await (await fetch(`${url}/metrics`)).text();
    }
    expect(metrics).toMatch(
      new RegExp(`wharf_site_requests_total\\{site="${site.name}",status="4xx"\\} (1\\d|[2-9]\\d)`),
    );
  });

  it('keeps real-time events working through the workers, over polling then WebSocket', async () => {
    const socket = io(url, { path: '/socket.io', extraHeaders: { cookie: owner.cookieHeader }, reconnection: false });
    try {
      await new Promise((resolve, reject) => {
        socket.on('connect', () => resolve(undefined));
        socket.on('connect_error', reject);
      });
      expect(await socket.emitWithAck('join', { room: 'site', id: site._id })).toEqual({ ok: true });
      const arrival = new Promise<string>((resolve) => socket.on('event', (message) => resolve(message.name)));
      expectStatus(await owner.put(`/api/v1/sites/${site._id}/password`, { password: 'letmein' }), 200);
      expect(await arrival).toBe('site_password_set');
    } finally {
      socket.close();
    }
  });

  it('stops all its processes on SIGTERM', async () => {
    wharf.child.kill('SIGTERM');
    expect(await exited(wharf.child)).toBe(0);
    await expect(fetch(`${url}/api/v1/system/info`)).rejects.toThrow();
  });

  it('refuses a WHARF_WORKERS that is not a number of processes, naming it', async () => {
    const bad = startWharf(dataDir, await freePort(), { WHARF_WORKERS: 'many' });
    expect(await exited(bad.child)).toBe(1);
    expect(bad.stderr()).toContain('WHARF_WORKERS must be a whole number');
  });
});
