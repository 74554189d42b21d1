import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tarGz, uploadForm } from '../../test/archives.ts';
import { expectStatus, signedIn, type TestClient } from '../../test/client.ts';
import { freePort, testDatabaseUrl, testPasswordHash } from '../../test/harness.ts';
import { type OwnDatabase, ownDatabase } from '../../test/ownDatabase.ts';
import { exited, startWharf, stopWharf, type WharfProcess, waitForApi } from '../../test/processes.ts';
import { openDb } from '../db/connection.ts';
import { isInstanceAlive } from './nodes.ts';

if (!testDatabaseUrl) console.warn('!! The life lock suite needs PostgreSQL (WHARF_TEST_DATABASE_URL): SKIPPED');

describe.skipIf(!testDatabaseUrl)('a node’s life lock and Idempotency-Keys across PostgreSQL restarts', () => {
  let database: OwnDatabase;
  const dataDirs: string[] = [];
  const started: WharfProcess[] = [];
  let url: string;
  let owner: TestClient;
  let siteId: string;
  let token: string;
  const secret = randomBytes(32).toString('base64url');

  async function startNode(name: string) {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), `wharf-${name}-`));
    dataDirs.push(dataDir);
    const port = await freePort();
    const wharf = await startWharf(dataDir, port, {
      DATABASE_URL: database.url,
      WHARF_NODE_NAME: name,
      WHARF_WORKERS: '2',
      WHARF_USERS: `owner:${await testPasswordHash()}`,
      WHARF_SECRET: secret,
    });
    started.push(wharf);
    return { wharf, url: `http://127.0.0.1:${port}` };
  }

  beforeAll(async () => {
    database = await ownDatabase('fault');
    const first = await startNode('node-a');
    url = first.url;
    await waitForApi(url);
    owner = await signedIn(url, 'owner');
    const org = expectStatus(await owner.post('/api/v1/orgs', { name: 'Acme' }), 200);
    const team = expectStatus(await owner.post(`/api/v1/orgs/${org._id}/teams`, { name: 'Web' }), 200);
    siteId = expectStatus(await owner.post(`/api/v1/teams/${team._id}/sites`, { name: 'locked' }), 200)._id;
    token = expectStatus(await owner.post(`/api/v1/sites/${siteId}/tokens`, { name: 'ci' }), 200).value;
  }, 120_000);
  afterAll(async () => {
    await Promise.all(started.map(stopWharf));
    await database?.drop();
    await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  /** PostgreSQL restarting for a few seconds: new connections refused, those made ended. */
  async function restartDatabase() {
    await database.allowConnections(false);
    try {
      await database.terminateFor(5_000);
    } finally {
      await database.allowConnections(true);
    }
    for (let attempt = 0; (await owner.get(`/api/v1/sites/${siteId}`)).status !== 200; attempt++) {
      expect(attempt, 'the API did not come back within 15 s').toBeLessThan(150);
      await sleep(100);
    }
  }

  /** The names of the site's releases. */
  async function releaseNames() {
    const releases = expectStatus(await owner.get(`/api/v1/sites/${siteId}/releases`), 200);
    return releases.items.map((item: { name: string }) => item.name);
  }

  /**
   * The whole upload again, with the same key, as a client's retry sends it, again (for 10 s at
   * most) while the answer's status is one of `retried` (503: the node's lock not taken back yet,
   * it takes no claim meanwhile); answers the last answer.
   */
  async function retry(upload: Awaited<ReturnType<typeof keyedUpload>>, retried = [503]) {
    const { 'content-length': _, ...headers } = upload.head.headers;
    for (let attempt = 0; ; attempt++) {
      const answer = await fetch(url + upload.head.path, { method: 'POST', headers, body: upload.body });
      const { code } = (await answer.json()) as { code?: string };
      if (!retried.includes(answer.status) || attempt === 50) return { status: answer.status, code };
      await sleep(200);
    }
  }

  /** An upload of a release named `name` with an Idempotency-Key: the request's head and its body. */
  async function keyedUpload(name: string, key: string) {
    const form = new Response(uploadForm(await tarGz([{ name: 'index.html', content: `<h1>${name}</h1>` }]), name));
    const body = Buffer.from(await form.arrayBuffer());
    const headers = {
      authorization: `Bearer ${token}`,
      'content-type': form.headers.get('content-type')!,
      'content-length': String(body.length),
      'idempotency-key': key,
    };
    return { head: { method: 'POST', path: `/api/v1/sites/${siteId}/releases`, headers }, body };
  }

  /**
   * Starts the upload and leaves it running (half its body sent); resolves once it holds its key,
   * with how to send the rest and hear the answer.
   */
  async function holdKey(upload: Awaited<ReturnType<typeof keyedUpload>>, key: string) {
    const half = upload.body.length / 2;
    const request = http.request({ host: '127.0.0.1', port: new URL(url).port, ...upload.head });
    const answer = new Promise<{ status: number; code?: string }>((resolve) => {
      request.on('error', () => resolve({ status: 0 }));
      request.on('response', async (response) => {
        const chunks: Buffer[] = [];
        for await (const chunk of response) chunks.push(chunk as Buffer);
        resolve({ status: response.statusCode ?? 0, code: JSON.parse(Buffer.concat(chunks).toString()).code });
      });
    });
    request.write(upload.body.subarray(0, half));
    await expect
      .poll(() => database.use(async (client) => (await client.query(keyRows, [key])).rowCount), { timeout: 15_000 })
      .toBe(1);
    return () => {
      request.end(upload.body.subarray(half));
      return answer;
    };
  }
  const keyRows = 'select held_by from idempotency_keys where key = $1 and answer is null';

  it('takes its lock back after a restart: a node keeping files in its own folder is refused beside it again', async () => {
    await restartDatabase();
    const second = await startNode('node-b');
    const outcome = await Promise.race([
      exited(second.wharf.child).then((code) => `exited ${code}`),
      waitForApi(second.url).then(() => 'serving'),
    ]);
    expect(outcome).toBe('exited 1');
    expect(second.wharf.stderr()).toMatch(/Other Wharf nodes run on this database \(node-a\)/);
  }, 90_000);

  it('keeps an Idempotency-Key its running upload holds across a restart: the retry waits, no second release', async () => {
    const key = `held-${randomBytes(8).toString('hex')}`;
    const upload = await keyedUpload('held', key);
    await holdKey(upload, key);
    await restartDatabase();
    expect(await retry(upload)).toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_IN_USE' });
    expect(await releaseNames()).not.toContain('held');
  }, 90_000);

  it('tells other processes a node is alive while it takes back a lock whose connection alone was cut', async () => {
    const key = `cut-${randomBytes(8).toString('hex')}`;
    const upload = await keyedUpload('cut', key);
    await holdKey(upload, key);
    const [holder] = await database.use(async (client) => (await client.query(keyRows, [key])).rows);
    // Another process asks, as another node's retry of the key would, the moment the lock's
    // connection alone was ended (a proxy's idle timeout).
    const other = openDb({ dataDir: '', databaseUrl: database.url });
    try {
      await database.use((client) =>
        client.query(
          `select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and application_name = 'wharf life lock'`,
          [database.name],
        ),
      );
      expect(await isInstanceAlive(other, holder.held_by)).toBe(true);
    } finally {
      await other.destroy();
    }
    expect(await retry(upload)).toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_IN_USE' });
    expect(await releaseNames()).not.toContain('cut');
  }, 60_000);

  it('lets go of the key of an upload the outage failed once the database is back: a retry makes the release', async () => {
    const key = `failed-${randomBytes(8).toString('hex')}`;
    const upload = await keyedUpload('failed', key);
    const finish = await holdKey(upload, key);
    await database.allowConnections(false);
    try {
      await database.terminate();
      expect(await finish()).toMatchObject({ status: 503, code: 'DATABASE_UNAVAILABLE' });
    } finally {
      await database.allowConnections(true);
    }
    // The client's retries, as the CLI makes them: the key is free again within seconds, not an hour.
    expect(await retry(upload, [503, 409])).toMatchObject({ status: 200 });
    expect((await releaseNames()).filter((name: string) => name === 'failed')).toHaveLength(1);
  }, 60_000);
});
