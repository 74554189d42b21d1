import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AuditEntry } from '@wharf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, signedIn, TestClient } from '../../test/client.ts';
import { startTestServer, testDatabaseUrl } from '../../test/harness.ts';
import { ownDatabase } from '../../test/ownDatabase.ts';
import { type S3Peer, startS3Peer } from '../../test/s3Peer.ts';
import { siteRequest } from '../../test/siteClient.ts';
import { wharfServer } from '../../test/wharfServerCommand.ts';
import { buildWorld, logoForm, uploadRelease } from '../../test/world.ts';
import { randomString } from '../lib/ids.ts';
import { BLOBS_DIR } from './manifest.ts';

/** Two backups, two restores and three Wharfs, each command a process of its own, on a machine others share. */
const TIMEOUT = 300_000;

const MAIN_FILES = [
  { name: 'index.html', content: '<!doctype html><h1>Served before the move</h1>' },
  { name: 'bytes/random.bin', content: randomBytes(50_000) },
];
const PREVIEW_FILES = [{ name: 'index.html', content: '<!doctype html><h1>A preview</h1>' }];
/** Where a visitor gets them on each branch (`index.html` is served at its folder's address). */
const SERVED_AT = ['/', '/bytes/random.bin'];

/** Where a Wharf keeps its state: SQLite and a folder, or PostgreSQL and a bucket, all the test's own. */
interface Place {
  dataDir: string;
  /** The settings naming it, for Wharf and for `wharf-server`. */
  env: Record<string, string>;
}

/** What the test made through the API of the first Wharf, by id. */
interface Made {
  orgId: string;
  siteId: string;
  mainBranchId: string;
  siteToken: string;
  apiToken: string;
}

type Paged<T> = { items: T[]; count: number };

/** The branches' and sites' addresses name the port, which differs from one Wharf to the next. */
const withoutUrls = (value: unknown) =>
  JSON.parse(JSON.stringify(value, (key, field) => (key === 'url' ? undefined : field)));

async function populate(url: string): Promise<Made> {
  const world = await buildWorld(url);
  const { owner } = world.clients;
  const siteId = world.site._id;
  await uploadRelease(owner, siteId, 'the main site', ['main'], MAIN_FILES);
  await uploadRelease(owner, siteId, 'a preview', ['preview'], PREVIEW_FILES);
  expectStatus(await owner.request('POST', `/api/v1/orgs/${world.org._id}/logo`, logoForm()), 200);
  const siteToken = expectStatus(await owner.post(`/api/v1/sites/${siteId}/tokens`, { name: 'ci' }), 200);
  const apiToken = expectStatus(
    await owner.post('/api/v1/api-tokens', { name: 'ops', scopes: ['org_audit_read', 'release_list'] }),
    200,
  );
  return {
    orgId: world.org._id,
    siteId,
    mainBranchId: world.site.mainBranch,
    siteToken: siteToken.value,
    apiToken: apiToken.value,
  };
}

/** What an installation shows of the site, its history and its tokens: the same after a move. */
async function look(url: string, made: Made) {
  const owner = await signedIn(url, 'owner');
  const withApiToken = new TestClient(url, made.apiToken);
  const site = expectStatus(await owner.get(`/api/v1/sites/${made.siteId}`), 200);
  const branches = expectStatus(await owner.get(`/api/v1/sites/${made.siteId}/branches`), 200);
  const served: Record<string, string> = {};
  for (const branch of branches as { name: string; url: string }[]) {
    for (const at of SERVED_AT) {
      const answer = await siteRequest(Number(new URL(url).port), new URL(branch.url).hostname, at);
      served[`${branch.name} ${at}`] = `${answer.status} ${answer.body.toString('base64')}`;
    }
  }
  const releases = `/api/v1/sites/${made.siteId}/releases?size=100`;
  const logo = await owner.get(`/api/v1/orgs/${made.orgId}/logo`);
  return {
    site: withoutUrls(site),
    branches: withoutUrls(branches),
    served,
    releases: withoutUrls(expectStatus(await withApiToken.get(releases), 200)),
    mainHistory: withoutUrls(expectStatus(await owner.get(`${releases}&branch=${made.mainBranchId}`), 200)),
    found: withoutUrls(expectStatus(await owner.get(`${releases}&search=previ`), 200)),
    audit: expectStatus(await withApiToken.get(`/api/v1/orgs/${made.orgId}/audit?size=100`), 200),
    siteTokens: expectStatus(await owner.get(`/api/v1/sites/${made.siteId}/tokens`), 200),
    apiTokens: expectStatus(await owner.get('/api/v1/api-tokens'), 200),
    logo: Buffer.from(logo.body, 'latin1').toString('base64'),
  };
}

/** Uploads with the site token a new release to main, which the moved Wharf records and serves. */
async function deployAfterMove(url: string, made: Made, name: string) {
  const content = `<!doctype html><h1>${name}</h1>`;
  await uploadRelease(
    new TestClient(url, made.siteToken),
    made.siteId,
    name,
    ['main'],
    [{ name: 'index.html', content }],
  );
  const audit = await new TestClient(url, made.apiToken).get<Paged<AuditEntry>>(`/api/v1/orgs/${made.orgId}/audit`);
  // The event counter came along: the upload's events are numbered after the old ones, so they lead the log.
  const newest = expectStatus(audit, 200).items.slice(0, 2);
  expect(newest.find((entry) => entry.event === 'site_release_created')?.summary).toContain(name);
  const owner = await signedIn(url, 'owner');
  const site = expectStatus(await owner.get(`/api/v1/sites/${made.siteId}`), 200);
  const served = await siteRequest(Number(new URL(url).port), new URL(site.url).hostname, '/');
  expect(served.text).toBe(content);
}

/** The blobs' keys a backup folder holds, as a store names them. */
async function keysIn(dir: string) {
  const root = path.join(dir, BLOBS_DIR);
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort();
}

if (!testDatabaseUrl)
  console.warn('!! Moving between SQLite and PostgreSQL needs PostgreSQL (WHARF_TEST_DATABASE_URL): SKIPPED');

describe.skipIf(!testDatabaseUrl)('moving a Wharf between one machine and PostgreSQL with a bucket', () => {
  let s3: S3Peer;
  const cleanups: (() => Promise<unknown>)[] = [];
  const folder = async (purpose: string) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), `wharf-${purpose}-`));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    return dir;
  };
  const onOneMachine = async (): Promise<Place> => {
    const dataDir = await folder('small');
    return { dataDir, env: { WHARF_DATA_DIR: dataDir } };
  };
  const onPostgresAndBucket = async (): Promise<Place & { prefix: string }> => {
    const database = await ownDatabase('move');
    cleanups.push(() => database.drop());
    const dataDir = await folder('large');
    const prefix = `moved-${randomString(8)}`;
    return { dataDir, prefix, env: { WHARF_DATA_DIR: dataDir, DATABASE_URL: database.url, ...s3.env(prefix) } };
  };
  const backUp = async (place: Place) => {
    const dir = await folder('backup');
    const made = await wharfServer(['backup', dir], place.env);
    expect(made.output).toContain('Backup complete');
    return dir;
  };

  /** The first Wharf, on SQLite and a folder, as the test made it and as it showed before its backup. */
  let made: Made;
  let before: Awaited<ReturnType<typeof look>>;
  let upward: string;

  beforeAll(async () => {
    s3 = await startS3Peer('s3rver');
    const small = await onOneMachine();
    const first = await startTestServer({ dataDir: small.dataDir });
    try {
      made = await populate(first.url);
      before = await look(first.url, made);
    } finally {
      await first.close();
    }
    expect(before.found.items.map((release: { name: string }) => release.name)).toEqual(['a preview']);
    expect(before.served['main /bytes/random.bin']).toMatch(/^200 /);
    upward = await backUp(small);
  }, TIMEOUT);

  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await s3?.close();
  });

  it(
    'moves up from SQLite and a folder to PostgreSQL and a bucket, then back down, keeping sites, tokens and history',
    async () => {
      const large = await onPostgresAndBucket();
      const movedUp = await wharfServer(['restore', upward], large.env);
      expect(movedUp.output).toContain('Database restored (from sqlite into postgres');
      expect(movedUp.output).toContain('Restore complete');
      expect(movedUp.code).toBe(0);
      // Every file went into the bucket, none into the data folder.
      expect(await s3.keys(large.prefix)).toEqual(await keysIn(upward));
      expect(await readdir(large.dataDir)).not.toContain(BLOBS_DIR);

      const second = await startTestServer({ dataDir: large.dataDir, env: large.env });
      let after: Awaited<ReturnType<typeof look>>;
      try {
        expect(await look(second.url, made)).toEqual(before);
        await deployAfterMove(second.url, made, 'deployed on PostgreSQL');
        after = await look(second.url, made);
      } finally {
        await second.close();
      }
      const downward = await backUp(large);

      const smallAgain = await onOneMachine();
      const movedDown = await wharfServer(['restore', downward], smallAgain.env);
      expect(movedDown.output).toContain('Database restored (from postgres into sqlite');
      expect(movedDown.code).toBe(0);
      expect(await keysIn(smallAgain.dataDir)).toEqual(await s3.keys(large.prefix));

      const third = await startTestServer({ dataDir: smallAgain.dataDir });
      try {
        expect(await look(third.url, made)).toEqual(after);
        await deployAfterMove(third.url, made, 'deployed on SQLite again');
      } finally {
        await third.close();
      }
    },
    TIMEOUT,
  );

  it(
    'leaves a move up that stopped before its files were in place a database Wharf refuses, until it is run again',
    async () => {
      const lacking = await folder('lacking');
      await cp(upward, lacking, { recursive: true });
      const [first] = await keysIn(lacking);
      await rm(path.join(lacking, BLOBS_DIR, first!));
      const large = await onPostgresAndBucket();
      const stopped = await wharfServer(['restore', lacking], large.env);
      expect(stopped.output).toMatch(/missing or short/);
      expect(stopped.code).toBe(1);
      await expect(startTestServer({ dataDir: large.dataDir, env: large.env })).rejects.toThrow(
        /restore that did not finish/,
      );

      // Run again, the restore replaces the tables the stopped one copied, without --force.
      const again = await wharfServer(['restore', upward], large.env);
      expect(again.code).toBe(0);
      const moved = await startTestServer({ dataDir: large.dataDir, env: large.env });
      try {
        expect(await look(moved.url, made)).toEqual(before);
      } finally {
        await moved.close();
      }
    },
    TIMEOUT,
  );
});
