import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, signedIn, type TestClient } from '../../test/client.ts';
import { freePort, testDatabaseUrl, testPasswordHash } from '../../test/harness.ts';
import { type OwnDatabase, ownDatabase } from '../../test/ownDatabase.ts';
import {
  childPids,
  connectionsToEachWorker,
  exited,
  siteGet,
  startWharf,
  stopWharf,
  type WharfProcess,
  waitForApi,
} from '../../test/processes.ts';
import { connectRealtime, nextEvent } from '../../test/realtimeClient.ts';
import { uploadRelease } from '../../test/world.ts';

/** What a request of the API got during a fault: its status and code, and how long it took. */
interface ApiAnswer {
  status: number;
  code: string | null;
  ms: number;
}

const METRICS_TOKEN = 'the metrics token of this test';

if (!testDatabaseUrl)
  console.warn('!! The database connection-loss suite needs PostgreSQL (WHARF_TEST_DATABASE_URL): SKIPPED');

describe.skipIf(!testDatabaseUrl)('a cluster whose PostgreSQL connections are cut', () => {
  let database: OwnDatabase;
  let dataDir: string;
  let port: number;
  let url: string;
  let wharf: WharfProcess;
  let owner: TestClient;
  let siteId: string;
  let mainBranch: string;
  let host: string;
  const FILES = [
    { name: 'index.html', content: '<h1>still here</h1>' },
    { name: 'app.js', content: 'console.log("served from memory");' },
  ];

  beforeAll(async () => {
    database = await ownDatabase('fault');
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'wharf-dbloss-'));
    port = await freePort();
    url = `http://127.0.0.1:${port}`;
    wharf = await startWharf(dataDir, port, {
      DATABASE_URL: database.url,
      WHARF_WORKERS: '2',
      WHARF_USERS: `owner:${await testPasswordHash()}`,
      WHARF_METRICS_TOKEN: METRICS_TOKEN,
      LOG_LEVEL: 'info',
    });
    await waitForApi(url);
    owner = await signedIn(url, 'owner');
    const org = expectStatus(await owner.post('/api/v1/orgs', { name: 'Acme' }), 200);
    const team = expectStatus(await owner.post(`/api/v1/orgs/${org._id}/teams`, { name: 'Web' }), 200);
    const site = expectStatus(await owner.post(`/api/v1/teams/${team._id}/sites`, { name: 'steady' }), 200);
    siteId = site._id;
    mainBranch = site.mainBranch;
    host = `${site.name}.localhost:${port}`;
    await uploadRelease(owner, siteId, 'steady', ['main'], FILES);
    // Each worker reads the release's file list once (over a connection it holds); from then on it
    // serves from memory.
    const workers = await connectionsToEachWorker(wharf, port, 2);
    try {
      for (const agent of workers.agents)
        for (const file of FILES) expect((await siteGet(port, host, pathOf(file), agent)).text).toBe(file.content);
    } finally {
      workers.close();
    }
  }, 120_000);
  afterAll(async () => {
    if (wharf) await stopWharf(wharf);
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /** Where a file is served: the index at the directory's path. */
  const pathOf = (file: { name: string }) => (file.name === 'index.html' ? '/' : `/${file.name}`);
  /** The primary and its workers, by id. */
  const processes = () => [wharf.child.pid!, ...childPids(wharf.child.pid!)].sort();

  /** What /metrics answers (with its token); it fails the test unless it answers 200. */
  async function metrics() {
    const answer = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(answer.status).toBe(200);
    return answer.text();
  }

  /** A read of the API; status 0 when no answer came (the connection refused or cut). */
  async function apiRead(): Promise<ApiAnswer> {
    const startedAt = performance.now();
    try {
      const answer = await fetch(`${url}/api/v1/sites/${siteId}`, {
        headers: { cookie: owner.cookieHeader },
        signal: AbortSignal.timeout(60_000),
      });
      const body = (await answer.json()) as { code?: string };
      return { status: answer.status, code: body.code ?? null, ms: performance.now() - startedAt };
    } catch {
      await sleep(100);
      return { status: 0, code: null, ms: performance.now() - startedAt };
    }
  }

  /** Reads the API and the site's files until told to stop; answers what each got. */
  function readingAll() {
    let stopped = false;
    const api: ApiAnswer[] = [];
    const site: { path: string; status: number; right: boolean }[] = [];
    const readApi = async () => {
      while (!stopped) api.push(await apiRead());
    };
    const readSite = async () => {
      for (let i = 0; !stopped; i++) {
        const file = FILES[i % FILES.length]!;
        const answer = await siteGet(port, host, pathOf(file)).catch(() => sleep(100).then(() => null));
        site.push({ path: file.name, status: answer?.status ?? 0, right: answer?.text === file.content });
      }
    };
    const loops = Promise.all([readApi(), readApi(), readSite(), readSite()]);
    return async () => {
      stopped = true;
      await loops;
      return { api, site };
    };
  }

  /** How long until the API answers again, asked every 100 ms; fails after 30 s. */
  async function apiBackWithin() {
    const startedAt = performance.now();
    for (;;) {
      if ((await apiRead()).status === 200) return performance.now() - startedAt;
      if (performance.now() - startedAt > 30_000) throw new Error('The API did not come back within 30 s');
      await sleep(100);
    }
  }

  /**
   * Reads the API in parallel until the primary's pool holds `count` connections, so that a change
   * made next needs no new one: on a busy machine a few parallel reads may be answered on one.
   */
  /**
   * A request to the cluster's primary itself, over the local socket its workers hand node-wide
   * requests to: the primary stands for a process that kept its connections to the database.
   */
  function primaryRequest(method: string, urlPath: string, body?: unknown) {
    return new Promise<number>((resolve, reject) => {
      const request = http.request(
        {
          socketPath: path.join(os.tmpdir(), `wharf-${wharf.child.pid}.sock`),
          method,
          path: urlPath,
          headers: { host: `127.0.0.1:${port}`, cookie: owner.cookieHeader, 'content-type': 'application/json' },
        },
        (answer) => {
          answer.resume();
          answer.on('end', () => resolve(answer.statusCode ?? 0));
        },
      );
      request.on('error', reject);
      request.end(body === undefined ? undefined : JSON.stringify(body));
    });
  }

  async function primaryHolding(count: number) {
    const held = () =>
      database.use(async (client) => {
        const { rows } = await client.query(
          `select count(*)::int as n from pg_stat_activity where datname = $1 and application_name = 'wharf'`,
          [database.name],
        );
        return rows[0].n as number;
      });
    await expect
      .poll(
        async () => {
          await Promise.all(Array.from({ length: count * 2 }, () => primaryRequest('GET', `/api/v1/sites/${siteId}`)));
          return held();
        },
        { timeout: 30_000, interval: 0 },
      )
      .toBeGreaterThanOrEqual(count);
  }

  /** How many answers of each kind (`status code`), to read at a glance. */
  function tally(kinds: string[]) {
    const counts: Record<string, number> = {};
    for (const kind of kinds) counts[kind] = (counts[kind] ?? 0) + 1;
    return counts;
  }

  /** During a fault: each API answer a success or a quick 503 DATABASE_UNAVAILABLE, each site answer right. */
  function expectServedThrough(seen: Awaited<ReturnType<ReturnType<typeof readingAll>>>) {
    const wrong = seen.api.filter(
      (answer) => answer.status !== 200 && !(answer.status === 503 && answer.code === 'DATABASE_UNAVAILABLE'),
    );
    expect(tally(wrong.map((answer) => `${answer.status} ${answer.code}`))).toEqual({});
    expect(seen.api.filter((answer) => answer.ms > 5_000)).toEqual([]);
    expect(seen.site.length).toBeGreaterThan(0);
    const wrongFiles = seen.site.filter((answer) => answer.status !== 200 || !answer.right);
    expect(tally(wrongFiles.map((answer) => `${answer.status} ${answer.path}`))).toEqual({});
  }

  /** The figures of a fault, for the record. */
  function describeSeen(seen: Awaited<ReturnType<ReturnType<typeof readingAll>>>) {
    const refused = seen.api.filter((answer) => answer.status === 503).length;
    const slowest = Math.round(Math.max(...seen.api.map((answer) => answer.ms)));
    return `${seen.api.length} API reads (${refused} refused 503, slowest ${slowest} ms), ${seen.site.length} site reads, all right`;
  }

  it('answers the API 503 DATABASE_UNAVAILABLE or rightly, serves the sites, and keeps every process, while PostgreSQL restarts', async () => {
    const before = processes();
    expect(before).toHaveLength(3);
    const stopReading = readingAll();
    // A restart as the clients see it: every connection ended, again and again, for 5 s.
    await database.terminateFor(5_000);
    const seen = await stopReading();
    expectServedThrough(seen);
    expect(processes(), wharf.stderr()).toEqual(before);
    expect(await apiBackWithin()).toBeLessThan(15_000);
    console.info(`restart: ${describeSeen(seen)}`);
  }, 60_000);

  it('refuses quickly through a 15 s outage, then works again by itself within seconds of its end', async () => {
    const before = processes();
    // Scraped before, as Prometheus does every few seconds: the sites' names are known.
    await metrics();
    const stopReading = readingAll();
    await database.allowConnections(false);
    let back = 0;
    try {
      await database.terminateFor(15_000);
      const during = await apiRead();
      expect(during).toMatchObject({ status: 503, code: 'DATABASE_UNAVAILABLE' });
      // Metrics answer, saying so, with the sites' counts by name as last read.
      await expect.poll(metrics, { timeout: 5_000 }).toContain('wharf_dependency_up{dependency="database"} 0');
      expect(await metrics()).toMatch(/wharf_site_requests_total\{site="steady",status="2xx"\} [1-9]/);
    } finally {
      await database.allowConnections(true);
      back = performance.now();
    }
    const seen = await stopReading();
    expectServedThrough(seen);
    expect(seen.api.filter((answer) => answer.status === 503).length).toBeGreaterThan(0);
    expect(processes(), wharf.stderr()).toEqual(before);
    const recovered = await apiBackWithin();
    console.info(
      `outage: ${describeSeen(seen)}; API back ${Math.round(performance.now() - back)} ms after the database`,
    );
    expect(recovered).toBeLessThan(15_000);
  }, 90_000);

  it('follows changes again after the outage: the commit listener, the routing table and the console', async () => {
    // The primary listens for other nodes' commits on a connection of its own again.
    await expect
      .poll(
        () =>
          database.use(async (client) => {
            const { rows } = await client.query(
              `select count(*)::int as n from pg_stat_activity where datname = $1 and application_name = 'wharf listen' and query ilike 'listen %'`,
              [database.name],
            );
            return rows[0].n as number;
          }),
        { timeout: 15_000, interval: 200 },
      )
      .toBe(1);
    const socket = await connectRealtime(url, owner.cookieHeader);
    try {
      expect(await socket.emitWithAck('join', { room: 'site', id: siteId })).toEqual({ ok: true });
      const arrival = nextEvent(socket, 'site_release_created');
      await uploadRelease(owner, siteId, 'after', ['main'], [{ name: 'index.html', content: '<h1>after</h1>' }]);
      expect((await arrival).siteId).toBe(siteId);
      // Each worker serves the new release.
      const workers = await connectionsToEachWorker(wharf, port, 2);
      try {
        for (const agent of workers.agents) expect((await siteGet(port, host, '/', agent)).text).toBe('<h1>after</h1>');
      } finally {
        workers.close();
      }
    } finally {
      socket.close();
    }
  }, 60_000);

  it('brings a change committed while the edge workers had lost the database to them once it is back', async () => {
    const later = await uploadRelease(
      owner,
      siteId,
      'later',
      ['staging'],
      [{ name: 'index.html', content: '<h1>later</h1>' }],
    );
    // Each worker reads both releases' file lists, serving them on their branches: they have all
    // they need but the change. (Which worker takes a new connection is the kernel's choice: each
    // is read over a connection that worker holds.)
    const staging = new URL(later.deployedBranches[0].url).host;
    const workers = await connectionsToEachWorker(wharf, port, 2);
    try {
      for (const agent of workers.agents) {
        expect((await siteGet(port, staging, '/', agent)).text).toBe('<h1>later</h1>');
        expect((await siteGet(port, host, '/', agent)).text).toBe('<h1>after</h1>');
      }
      // The primary keeps connections it made: it commits the change while the workers cannot read it.
      await primaryHolding(6);
      await database.allowConnections(false);
      try {
        await database.terminate('wharf worker');
        expect(
          await primaryRequest('PUT', `/api/v1/sites/${siteId}/branches/${mainBranch}/release`, { release: later._id }),
        ).toBe(200);
        for (const agent of workers.agents) expect((await siteGet(port, host, '/', agent)).text).toBe('<h1>after</h1>');
      } finally {
        await database.allowConnections(true);
      }
    } finally {
      workers.close();
    }
    const startedAt = performance.now();
    await expect
      .poll(async () => [(await siteGet(port, host)).text, (await siteGet(port, host)).text], { timeout: 15_000 })
      .toEqual(['<h1>later</h1>', '<h1>later</h1>']);
    console.info(`the edge workers caught up ${Math.round(performance.now() - startedAt)} ms after the database`);
  }, 60_000);

  it('stops cleanly on SIGTERM while the database is away', async () => {
    await database.allowConnections(false);
    try {
      await database.terminate();
      wharf.child.kill('SIGTERM');
      expect(await exited(wharf.child), wharf.stderr()).toBe(0);
    } finally {
      await database.allowConnections(true);
    }
  }, 60_000);
});
