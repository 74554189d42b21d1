import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectStatus, TestClient } from '../../test/client.ts';
import { databases, schemaUrl, startTestServer, type TestServer, withPg } from '../../test/harness.ts';
import { siteRequest } from '../../test/siteClient.ts';
import { wharfServer } from '../../test/wharfServerCommand.ts';
import { buildWorld, logoForm, SITE_FILES, uploadRelease, type World } from '../../test/world.ts';
import { collectGarbage } from '../modules/releases/collect/gc.ts';
import { holdingCollection } from '../modules/releases/collect/holds.ts';

/** The permission bits of `dir` and of everything under it that is not as private as `mode` says, by path. */
async function lessPrivateThan(dir: string, fileMode: number, folderMode: number) {
  const entries = [dir, ...(await readdir(dir, { recursive: true })).map((name) => path.join(dir, name))];
  const found: Record<string, string> = {};
  for (const entry of entries) {
    const info = await stat(entry);
    const mode = info.mode & 0o777;
    if (mode !== (info.isDirectory() ? folderMode : fileMode)) found[path.relative(dir, entry)] = mode.toString(8);
  }
  return found;
}

const SCRIPT = { name: 'assets/app.js', content: 'export const greeting = "hello from the backup";\n'.repeat(40) };

/** A site with two releases (one with compressed variants), a logo and a site token. */
async function populate(world: World) {
  const { owner } = world.clients;
  const second = await uploadRelease(owner, world.site._id, 'second', ['main'], [...SITE_FILES, SCRIPT]);
  expectStatus(await owner.request('POST', `/api/v1/orgs/${world.org._id}/logo`, logoForm()), 200);
  const token = expectStatus(await owner.post(`/api/v1/sites/${world.site._id}/tokens`, { name: 'ci' }), 200);
  return { second, token };
}

/** Points the main branch back and forth between two releases until told to stop. */
function keepFlipping(world: World, releases: string[]) {
  let running = true;
  const flips = (async () => {
    for (let turn = 0; running; turn++) {
      const release = releases[turn % releases.length];
      await world.clients.owner.put(`/api/v1/sites/${world.site._id}/branches/${world.site.mainBranch}/release`, {
        release,
      });
    }
  })();
  return async () => {
    running = false;
    await flips;
  };
}

/** Backup and restore run as processes of their own, on a machine others share. */
const COMMANDS_TIMEOUT = 180_000;

describe.each(databases)('wharf-server backup and restore on $name', { timeout: COMMANDS_TIMEOUT }, ({ postgres }) => {
  it('copies a running Wharf at one moment and brings it back whole into an empty installation', async () => {
    const server = await startTestServer({ postgres });
    const world = await buildWorld(server.url);
    const { second, token } = await populate(world);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'wharf-backup-'));
    const stopFlipping = keepFlipping(world, [world.release._id, second._id]);
    const made = await wharfServer(['backup', dir], server.dataEnv);
    await stopFlipping();
    expect(made.output).toContain('Backup complete');
    expect(made.code).toBe(0);
    // The database, the secret and the sites' files are readable by Wharf's account only.
    expect(await lessPrivateThan(dir, 0o600, 0o700)).toEqual({});
    await world.clients.owner.put(`/api/v1/sites/${world.site._id}/branches/${world.site.mainBranch}/release`, {
      release: second._id,
    });
    const schema = server.schema;
    await server.close(); // the data directory and the schema are gone, as after a lost disk

    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'wharf-restored-'));
    const settings = { WHARF_DATA_DIR: dataDir, ...(schema ? { DATABASE_URL: schemaUrl(schema) } : {}) };
    let restored: TestServer | undefined;
    try {
      const put = await wharfServer(['restore', dir], settings);
      expect(put.output).toContain('every file the database lists is in place');
      expect(put.code).toBe(0);
      const restoredFiles = postgres ? ['secret'] : ['secret', 'wharf.sqlite'];
      for (const file of restoredFiles) expect((await stat(path.join(dataDir, file))).mode & 0o777).toBe(0o600);
      restored = await startTestServer({ dataDir, schema });
      const owner = await new TestClient(restored.url).signIn('owner');
      const site = expectStatus(await owner.get(`/api/v1/sites/${world.site._id}`), 200);
      const port = Number(new URL(restored.url).port);
      const host = new URL(site.url).hostname;
      const branch = expectStatus(await owner.get(`/api/v1/sites/${site._id}/branches/${site.mainBranch}`), 200);
      // The branch serves whichever release it pointed at when the backup was made.
      const script = await siteRequest(port, host, '/assets/app.js', { headers: { 'accept-encoding': 'br' } });
      if (branch.release === second._id) {
        expect(script.status).toBe(200);
        expect(script.headers['content-encoding']).toBe('br');
      }
      expect((await siteRequest(port, host, '/')).text).toBe(SITE_FILES[0]!.content);
      const logo = await owner.get(`/api/v1/orgs/${world.org._id}/logo`);
      expect(Buffer.from(logo.body, 'latin1').length).toBeGreaterThan(0);
      expect(logo.headers.get('content-type')).toBe('image/png');
      const tokens = expectStatus(await owner.get(`/api/v1/sites/${site._id}/tokens`), 200);
      // The secret came back too: the sealed token value opens as it did.
      expect(tokens.map((t: { value: string }) => t.value)).toContain(token.value);
      const withToken = owner.withToken(token.value);
      await uploadRelease(withToken, site._id, 'after the restore', ['main']);
    } finally {
      await restored?.close();
      if (schema) await withPg((client) => client.query(`drop schema if exists ${schema} cascade`));
      await rm(dataDir, { recursive: true, force: true });
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses to restore over an installation that has data, unless forced', async () => {
    const server = await startTestServer({ postgres });
    const dir = await mkdtemp(path.join(os.tmpdir(), 'wharf-backup-'));
    try {
      await buildWorld(server.url);
      expect((await wharfServer(['backup', dir], server.dataEnv)).code).toBe(0);
      const refused = await wharfServer(['restore', dir], server.dataEnv);
      expect(refused.code).toBe(1);
      expect(refused.output).toMatch(/--force/);
    } finally {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the hold a backup takes', () => {
  it('keeps the garbage collection from deleting files until it ends', async () => {
    const server = await startTestServer();
    try {
      const world = await buildWorld(server.url);
      const { owner } = world.clients;
      const spare = await uploadRelease(
        owner,
        world.site._id,
        'spare',
        ['spare'],
        [{ name: 'only.txt', content: 'x'.repeat(300) }],
      );
      expectStatus(
        await owner.delete(`/api/v1/sites/${world.site._id}/branches/${spare.deployedBranches[0]._id}`),
        204,
      );
      expectStatus(await owner.delete(`/api/v1/releases/${spare._id}`), 204);
      const later = new Date(Date.now() + 60 * 60_000);
      await holdingCollection(server.app.db, 'test', async () => {
        expect(await collectGarbage(server.app, later)).toBe(0);
      });
      expect(await collectGarbage(server.app, later)).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });
});
