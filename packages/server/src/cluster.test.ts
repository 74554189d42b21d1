import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectStatus, signedIn, type TestClient } from '../test/client.ts';
import { freePort, testPasswordHash } from '../test/harness.ts';
import { exited, siteGet, startWharf, stopWharf, type WharfProcess, waitForApi } from '../test/processes.ts';
import { uploadRelease } from '../test/world.ts';

const METRICS_TOKEN = 'cluster-metrics-token';
describe('Wharf with worker processes (WHARF_WORKERS)', () => {
  let dataDir: string;
  let port: number;
  let url: string;
  let wharf: WharfProcess;
  let owner: TestClient;
  let site: { _id: string; name: string };
  let host: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'wharf-cluster-'));
    port = await freePort();
    url = `http://127.0.0.1:${port}`;
    wharf = await startWharf(dataDir, port, {
      WHARF_WORKERS: '2',
      WHARF_USERS: `owner:${await testPasswordHash()}`,
      WHARF_METRICS_TOKEN: METRICS_TOKEN,
    });
    await waitForApi(url);
    owner = await signedIn(url, 'owner');
    const org = expectStatus(await owner.post('/api/v1/orgs', { name: 'Acme' }), 200);
    const team = expectStatus(await owner.post(`/api/v1/orgs/${org._id}/teams`, { name: 'Web' }), 200);
    site = expectStatus(await owner.post(`/api/v1/teams/${team._id}/sites`, { name: 'clustered' }), 200);
    host = `${site.name}.localhost:${port}`;
  });
  afterAll(async () => {
    if (wharf) await stopWharf(wharf);
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
    // The workers send their counts to the primary once a second: until then /metrics has fewer.
    await vi.waitFor(
      async () => {
        const metrics = await (
          await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
        ).text();
        expect(metrics).toMatch(
          new RegExp(`wharf_site_requests_total\\{site="${site.name}",status="4xx"\\} (1\\d|[2-9]\\d)`),
        );
      },
      { timeout: 20_000, interval: 100 },
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
    const bad = await startWharf(dataDir, await freePort(), { WHARF_WORKERS: 'many' });
    expect(await exited(bad.child)).toBe(1);
    expect(bad.stderr()).toContain('WHARF_WORKERS must be a whole number');
  });
});
