import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expectStatus } from '@wharf/server/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { runInProcess } from './inProcess.ts';
import { type RecordingProxy, startRecordingProxy } from './recordingProxy.ts';
import { siteFolder } from './siteFolder.ts';
import { startUploadWorld, type UploadWorld } from './uploadWorld.ts';
import { startWharf } from './wharfProcess.ts';

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
});

const connection = () => ['--url', proxy.url, '--site', world.siteId, '--token', world.siteToken];
const db = () => world.server.app.db;
const releasesNamed = (name: string) => db().selectFrom('releases').select('id').where('name', '=', name).execute();
const requestsTo = (method: string, path: RegExp) =>
  proxy.requests.filter((request) => request.method === method && path.test(request.path));

/** Uploads a folder of its own as a release of this name, in-process and with fast retries. */
async function upload(release: string) {
  const folder = await siteFolder({ 'index.html': `<h1>${release}</h1>` });
  const run = await runInProcess(['upload', folder, ...connection(), '--release', release, '--json']);
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout);
}

describe('wharf upload when the connection dies after the server acted', () => {
  it('makes one release of an archive upload whose answer was lost, and reports it', async () => {
    proxy.refuseDeploys = { status: 404, code: 'ROUTE_NOT_FOUND', message: 'No route' };
    proxy.cutAnswer = { method: 'POST', path: /\/releases$/ };
    const result = await upload('archive, answer lost');
    expect(await releasesNamed('archive, answer lost')).toEqual([{ id: result.release._id }]);
    const uploads = requestsTo('POST', /\/releases$/);
    expect(uploads.map((request) => request.cut ?? false)).toEqual([true, false]);
    expect(uploads[0]!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(uploads[1]!.idempotencyKey).toBe(uploads[0]!.idempotencyKey);
  });

  it('makes one deploy when the answer to its start was lost', async () => {
    proxy.cutAnswer = { method: 'POST', path: /\/deploys$/ };
    const result = await upload('deploy, start lost');
    expect(requestsTo('POST', /\/deploys$/).map((request) => request.cut ?? false)).toEqual([true, false]);
    const deploys = await db()
      .selectFrom('deploys')
      .select('release_id')
      .where('name', '=', 'deploy, start lost')
      .execute();
    expect(deploys).toEqual([{ release_id: result.release._id }]);
    expect(await releasesNamed('deploy, start lost')).toHaveLength(1);
  });

  it('makes one release when the answer to the finalise was lost', async () => {
    proxy.cutAnswer = { method: 'POST', path: /\/finalize$/ };
    const result = await upload('deploy, finalise lost');
    expect(requestsTo('POST', /\/finalize$/).map((request) => request.cut ?? false)).toEqual([true, false]);
    expect(await releasesNamed('deploy, finalise lost')).toEqual([{ id: result.release._id }]);
  });
});

describe('wharf login when the answer carrying its token was lost', () => {
  it('gets the token on the retry of that same poll, and keeps one token', async () => {
    const config = await mkdtemp(path.join(os.tmpdir(), 'wharf-config-'));
    onTestFinished(() => rm(config, { recursive: true, force: true }));
    const login = startWharf(['login', '--url', proxy.url, '--json'], { env: { XDG_CONFIG_HOME: config } });
    const [, id] = await login.stderrMatch(/\/cli-login\/(\w+)\n/);
    // Only the poll whose answer holds the token loses it: the server has marked it handed over.
    proxy.cutAnswer = { method: 'POST', path: /\/token$/, holding: 'wharf_api_' };
    expectStatus(await world.owner.post(`/api/v1/cli-logins/${id}/approve`), 200);
    const run = await login.done;
    expect(run.code).toBe(0);
    const polls = requestsTo('POST', /\/token$/);
    const cut = polls.findIndex((poll) => poll.cut);
    expect(cut).toBeGreaterThanOrEqual(0);
    // The retry carries the key of the poll it repeats; every poll before had a key of its own.
    expect(polls[cut + 1]!.idempotencyKey).toBe(polls[cut]!.idempotencyKey);
    expect(new Set(polls.slice(0, cut + 1).map((poll) => poll.idempotencyKey)).size).toBe(cut + 1);
    const stored = JSON.parse(await readFile(path.join(config, 'wharf', 'credentials.json'), 'utf8'));
    const tokens = expectStatus(await world.owner.get('/api/v1/api-tokens'), 200);
    const made = tokens.filter((token: { name: string }) => token.name.startsWith('CLI on '));
    expect(made).toHaveLength(1);
    expect(stored.servers[proxy.url].tokenId).toBe(made[0]._id);
  });
});
