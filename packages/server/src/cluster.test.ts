import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectStatus, signedIn, type TestClient } from '../test/client.ts';
import { freePort, testPasswordHash } from '../test/harness.ts';
import {
  connectionsToEachWorker,
  exited,
  siteGet,
  startWharf,
  stopWharf,
  type WharfProcess,
  waitForApi,
} from '../test/processes.ts';
import { wholeBody } from '../test/wholeAnswer.ts';
import { uploadRelease } from '../test/world.ts';

const METRICS_TOKEN = 'cluster-metrics-token';

/** A request over `agent`'s kept connection, so to the worker that holds it. */
function requestVia(port: number, agent: http.Agent, options: http.RequestOptions, body?: string) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, agent, ...options }, (res) => {
      wholeBody(res).then((text) => resolve({ status: res.statusCode ?? 0, text: text.toString() }), reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}
describe('Wharf with worker processes (WHARF_WORKERS)', () => {
  let dataDir: string;
  let port: number;
  let url: string;
  let wharf: WharfProcess;
  let owner: TestClient;
  let site: { _id: string; name: string };
  let host: string;
  const getVia = (agent: http.Agent, path: string, headers: Record<string, string>) =>
    requestVia(port, agent, { path, headers: { host: `127.0.0.1:${port}`, ...headers } });
  const postVia = (agent: http.Agent, siteHost: string, path: string, fields: string) =>
    requestVia(
      port,
      agent,
      {
        method: 'POST',
        path,
        headers: {
          host: siteHost,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
      },
      fields,
    );

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
    // The same counts reach the site's traffic, written by the primary alone (a worker hands this route over).
    const summary = expectStatus(await owner.get(`/api/v1/sites/${site._id}/traffic/summary?days=1`), 200);
    expect(summary.missing.items).toEqual([{ key: '/missing', requests: expect.any(Number) }]);
    expect(summary.missing.items[0].requests).toBeGreaterThanOrEqual(10);
  });

  it('answers the API and the sites in each worker itself: with the primary paused, both workers still answer', async () => {
    const each = await connectionsToEachWorker(wharf, port, 2);
    process.kill(wharf.child.pid!, 'SIGSTOP');
    try {
      for (const agent of each.agents) {
        const orgs = await getVia(agent, '/api/v1/orgs', { cookie: owner.cookieHeader });
        expect([orgs.status, JSON.parse(orgs.text).map((org: { name: string }) => org.name)]).toEqual([200, ['Acme']]);
        expect((await siteGet(port, host, '/', agent)).text).toBe('second');
      }
    } finally {
      process.kill(wharf.child.pid!, 'SIGCONT');
      each.close();
    }
  });

  it('sends real-time events to sockets on every worker, over WebSocket only', async () => {
    const each = await connectionsToEachWorker(wharf, port, 2);
    // Each socket's upgrade goes over its agent's kept connection: one socket in each worker.
    const sockets = each.agents.map((agent) =>
      io(url, {
        path: '/socket.io',
        transports: ['websocket'],
        // A socket of its own, not the first one's (socket.io shares one per address by default).
        forceNew: true,
        agent: agent as never,
        extraHeaders: { cookie: owner.cookieHeader },
        reconnection: false,
      }),
    );
    try {
      for (const socket of sockets) {
        // Opened together: this one may have connected while the one before joined.
        await new Promise((resolve, reject) => {
          if (socket.connected) resolve(undefined);
          socket.on('connect', () => resolve(undefined));
          socket.on('connect_error', reject);
        });
        expect(await socket.emitWithAck('join', { room: 'site', id: site._id })).toEqual({ ok: true });
      }
      const arrivals = sockets.map(
        (socket) => new Promise<string>((resolve) => socket.on('event', (message) => resolve(message.name))),
      );
      expectStatus(await owner.put(`/api/v1/sites/${site._id}/password`, { password: 'letmein' }), 200);
      expect(await Promise.all(arrivals)).toEqual(['site_password_set', 'site_password_set']);
      // Polling's requests could reach a worker that never saw the session's handshake.
      const polling = await fetch(`${url}/socket.io/?EIO=4&transport=polling`, {
        headers: { cookie: owner.cookieHeader },
      });
      expect(polling.status).toBe(400);
    } finally {
      for (const socket of sockets) socket.close();
      each.close();
    }
  });

  it('counts form posts from one address over all workers together, without Redis: 20 a minute', async () => {
    const files = [
      { name: 'index.html', content: '<form method="post" action="/.wharf/forms/contact"></form>' },
      { name: '.wharf.yml', content: 'forms:\n  - name: contact\n    type: db\n' },
    ];
    await uploadRelease(owner, site._id, 'forms', ['forms'], files);
    // The real-time case protected the site: forms post to a public one.
    expectStatus(await owner.delete(`/api/v1/sites/${site._id}/password`), 200);
    const formsHost = `forms.${host}`;
    const each = await connectionsToEachWorker(wharf, port, 2);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 24; i++) {
        const answer = await postVia(each.agents[i % 2]!, formsHost, '/.wharf/forms/contact', `n=${i}`);
        statuses.push(answer.status);
      }
      expect(statuses).toEqual([...Array(20).fill(200), ...Array(4).fill(429)]);
    } finally {
      each.close();
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
