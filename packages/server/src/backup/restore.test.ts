import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readdir, rm, stat, truncate } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, TestClient } from '../../test/client.ts';
import { databases, freePort, startTestServer, testUsersSetting } from '../../test/harness.ts';
import { type OwnDatabase, ownDatabase } from '../../test/ownDatabase.ts';
import { exited, startWharf, waitForApi } from '../../test/processes.ts';
import { siteRequest } from '../../test/siteClient.ts';
import { wharfServer } from '../../test/wharfServerCommand.ts';
import { buildWorld, uploadRelease } from '../../test/world.ts';
import { SQLITE_FILE } from '../db/connection.ts';
import { BLOBS_DIR, DATABASE_FILES } from './manifest.ts';

/** Each case backs up, restores and starts Wharf as separate processes, on a machine others share. */
const TIMEOUT = 240_000;

const SERVED = [
  { name: 'index.html', content: '<!doctype html><h1>Before the backup</h1>' },
  { name: 'bytes/random.bin', content: randomBytes(200_000) },
];
/** Where a visitor gets them (`index.html` is served at its folder's address). */
const SERVED_AT = ['/', '/bytes/random.bin'];

/** What an installation shows: it must look the same after a restore. */
interface Seen {
  members: unknown;
  releases: unknown;
  files: Buffer[];
}

async function look(url: string, orgId: string, siteId: string, host: string): Promise<Seen> {
  const owner = await new TestClient(url).signIn('owner');
  const port = Number(new URL(url).port);
  const files = [];
  for (const at of SERVED_AT) {
    const answer = await siteRequest(port, host, at);
    expect(answer.status).toBe(200);
    files.push(answer.body);
  }
  return {
    members: expectStatus(await owner.get(`/api/v1/orgs/${orgId}/members`), 200),
    releases: withoutUrls(expectStatus(await owner.get(`/api/v1/sites/${siteId}/releases`), 200)),
    files,
  };
}

/** The branches' addresses name the port, which differs from one Wharf process to the next. */
const withoutUrls = (value: unknown) =>
  JSON.parse(JSON.stringify(value, (key, field) => (key === 'url' ? undefined : field)));

/** Where Wharf keeps its state: an empty data directory, and a database made as `createdb` makes one. */
interface Place {
  dataDir: string;
  /** The settings naming it, for Wharf and for `wharf-server`. */
  env: Record<string, string>;
  remove(): Promise<void>;
}

async function emptyPlace(postgres: boolean, purpose: string): Promise<Place> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `wharf-${purpose}-`));
  const database: OwnDatabase | null = postgres ? await ownDatabase(purpose) : null;
  return {
    dataDir,
    env: { WHARF_DATA_DIR: dataDir, ...(database ? { DATABASE_URL: database.url } : {}) },
    async remove() {
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Wharf as `npm start` runs it on `place`: serving (stopped by `stop`), or refused with its message. */
async function startOn(place: Place) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const wharf = await startWharf(place.dataDir, port, {
    ...place.env,
    WHARF_USERS: await testUsersSetting(),
    WHARF_WORKERS: '1',
  });
  const outcome = await Promise.race([
    exited(wharf.child).then((code) => ({ code })),
    waitForApi(url).then(() => ({ code: undefined })),
  ]);
  const stop = async () => {
    wharf.child.kill('SIGTERM');
    await exited(wharf.child);
  };
  return { url, refused: outcome.code !== undefined, code: outcome.code, message: wharf.stderr(), stop };
}

async function expectRefused(place: Place, reason: RegExp) {
  const started = await startOn(place);
  if (!started.refused) await started.stop();
  expect(started.refused).toBe(true);
  expect(started.code).toBe(1);
  expect(started.message).toMatch(reason);
}

/** A copy of the backup in `dir` with `damage` done to it. */
async function damagedCopy(dir: string, damage: (copy: string) => Promise<void>) {
  const copy = await mkdtemp(path.join(os.tmpdir(), 'wharf-damaged-'));
  await cp(dir, copy, { recursive: true });
  await damage(copy);
  return copy;
}

const UNFINISHED = /restore that did not finish/;

describe.each(databases)('wharf-server restore on $name', ({ postgres }) => {
  const made: { dir: string; orgId: string; siteId: string; host: string; seen: Seen } = {} as never;
  const cleanups: (() => Promise<unknown>)[] = [];
  const place = async (purpose: string) => {
    const created = await emptyPlace(postgres, purpose);
    cleanups.push(created.remove);
    return created;
  };

  beforeAll(async () => {
    const source = await place('restore_source');
    const server = await startTestServer({ dataDir: source.dataDir, env: source.env });
    try {
      const world = await buildWorld(server.url);
      await uploadRelease(world.clients.owner, world.site._id, 'served', ['main'], SERVED);
      made.orgId = world.org._id;
      made.siteId = world.site._id;
      made.host = new URL(world.site.url).hostname;
      made.seen = await look(server.url, made.orgId, made.siteId, made.host);
      made.dir = await mkdtemp(path.join(os.tmpdir(), 'wharf-backup-'));
      cleanups.push(() => rm(made.dir, { recursive: true, force: true }));
      const backup = await wharfServer(['backup', made.dir], source.env);
      expect(backup.output).toContain('Backup complete');
    } finally {
      await server.close();
    }
  }, TIMEOUT);

  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it(
    'brings a backup back into an empty database, and Wharf serves it as it was',
    async () => {
      const target = await place('restore_target');
      const restored = await wharfServer(['restore', made.dir], target.env);
      expect(restored.output).toContain('Restore complete');
      expect(restored.code).toBe(0);
      const started = await startOn(target);
      try {
        expect(started.message).not.toMatch(/restore|record/);
        expect(started.refused).toBe(false);
        const seen = await look(started.url, made.orgId, made.siteId, made.host);
        expect(seen.members).toEqual(made.seen.members);
        expect(seen.releases).toEqual(made.seen.releases);
        // Byte for byte, the binary file too.
        expect(seen.files).toEqual(made.seen.files);
      } finally {
        await started.stop();
      }
    },
    TIMEOUT,
  );

  it(
    'leaves a restore that stopped before its files were in place a database Wharf refuses, until it is run again',
    async () => {
      const target = await place('restore_target');
      const lacking = await damagedCopy(made.dir, async (copy) => {
        const [first] = (await readdir(path.join(copy, BLOBS_DIR), { recursive: true, withFileTypes: true })).filter(
          (entry) => entry.isFile(),
        );
        await rm(path.join(first!.parentPath, first!.name));
      });
      cleanups.push(() => rm(lacking, { recursive: true, force: true }));
      const stopped = await wharfServer(['restore', lacking], target.env);
      expect(stopped.output).toMatch(/missing or short/);
      expect(stopped.code).toBe(1);
      await expectRefused(target, UNFINISHED);

      // The restore run again replaces what the unfinished one left, without --force.
      const again = await wharfServer(['restore', made.dir], target.env);
      expect(again.code).toBe(0);
      const started = await startOn(target);
      try {
        expect((await look(started.url, made.orgId, made.siteId, made.host)).files).toEqual(made.seen.files);
      } finally {
        await started.stop();
      }
    },
    TIMEOUT,
  );

  it.runIf(postgres)(
    'leaves a restore whose dump ends early a database Wharf refuses',
    async () => {
      const target = await place('restore_target');
      const cut = await damagedCopy(made.dir, async (copy) => {
        const dump = path.join(copy, DATABASE_FILES.postgres);
        await truncate(dump, (await stat(dump)).size - 64);
      });
      cleanups.push(() => rm(cut, { recursive: true, force: true }));
      const stopped = await wharfServer(['restore', cut], target.env);
      expect(stopped.output).toMatch(/pg_restore failed.*end of file/s);
      expect(stopped.code).toBe(1);
      await expectRefused(target, UNFINISHED);
    },
    TIMEOUT,
  );

  it.runIf(!postgres)(
    'refuses a damaged database copy before it changes anything',
    async () => {
      const target = await place('restore_target');
      const cut = await damagedCopy(made.dir, async (copy) => {
        const file = path.join(copy, DATABASE_FILES.sqlite);
        await truncate(file, Math.floor((await stat(file)).size / 2));
      });
      cleanups.push(() => rm(cut, { recursive: true, force: true }));
      const stopped = await wharfServer(['restore', cut], target.env);
      expect(stopped.output).toMatch(/The backup's database (is damaged|cannot be read)/);
      expect(stopped.code).toBe(1);
      expect(await readdir(target.dataDir)).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    "refuses to start on a database that holds Wharf's tables without the record of its migrations",
    async () => {
      const target = await place('restore_target');
      expect((await wharfServer(['restore', made.dir], target.env)).code).toBe(0);
      await runSql(target, 'drop table kysely_migration');
      await expectRefused(
        target,
        /holds Wharf's tables \(users, sites, releases, events\) but no record of the migrations/,
      );
    },
    TIMEOUT,
  );
});

/** One statement on the database of `place`, as an operator's mistake would run it. */
async function runSql(place: Place, statement: string) {
  const url = place.env.DATABASE_URL;
  if (!url) {
    const database = new SQLite(path.join(place.dataDir, SQLITE_FILE));
    database.exec(statement);
    database.close();
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(statement);
  await client.end();
}
