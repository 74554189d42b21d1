import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { siteRequest } from '@wharf/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteFolder } from './siteFolder.ts';
import { startStatusPeer } from './statusPeer.ts';
import { startUploadWorld, type UploadWorld } from './uploadWorld.ts';

const run = promisify(execFile);
const PACK_SCRIPT = path.resolve(import.meta.dirname, '../scripts/pack.mjs');
/** What a user's machine has: Node and the system's tools, none of this repository. */
const SYSTEM_PATH = [path.dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':');

describe('the standalone CLI package (wharf-cli)', () => {
  let world: UploadWorld;
  let outside: string;
  let wharf: string;

  beforeAll(async () => {
    world = await startUploadWorld();
    outside = await mkdtemp(path.join(os.tmpdir(), 'wharf-cli-user-'));
    const { stdout } = await run(process.execPath, [PACK_SCRIPT, outside]);
    const tarball = stdout.trim().split('\n').at(-1)!;
    // Installed from the tarball alone, offline: the package must bring everything it needs.
    await run('npm', ['install', '--global', '--offline', '--prefix', path.join(outside, 'global'), tarball], {
      cwd: outside,
      env: { PATH: SYSTEM_PATH, HOME: outside },
    });
    wharf = path.join(outside, 'global', 'bin', 'wharf');
  }, 120_000);
  afterAll(async () => {
    await world?.server.close();
    if (outside) await rm(outside, { recursive: true, force: true });
  });

  it('installs outside the repository with no dependencies, and uploads a folder to a server', async () => {
    const folder = await siteFolder({ 'index.html': '<h1>From the packed CLI</h1>' });
    const env = { PATH: SYSTEM_PATH, HOME: outside };
    expect((await run(wharf, ['--version'], { cwd: outside, env })).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const { stdout } = await run(
      wharf,
      ['upload', folder, '--url', world.server.url, '--site', world.siteId, '--token', world.siteToken, '--json'],
      { cwd: outside, env },
    );
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({ ok: true, release: { fileCount: 1 } });
    const url = new URL(result.branches[0].url);
    const port = Number(new URL(world.server.url).port);
    expect((await siteRequest(port, url.host, '/')).text).toBe('<h1>From the packed CLI</h1>');
  });

  it('deploys a pull request’s preview with a commit status to a forge, then deletes the branch', async () => {
    const forge = await startStatusPeer('ci-token');
    try {
      const folder = await siteFolder({ 'index.html': '<h1>Preview 12</h1>' });
      const eventPath = path.join(outside, 'event.json');
      await writeFile(eventPath, JSON.stringify({ pull_request: { number: 12, head: { sha: 'feed12' } } }));
      const env = {
        PATH: SYSTEM_PATH,
        HOME: outside,
        WHARF_URL: world.server.url,
        WHARF_SITE: world.siteId,
        WHARF_TOKEN: world.siteToken,
        CI: 'true',
        GITHUB_EVENT_NAME: 'pull_request',
        GITHUB_EVENT_PATH: eventPath,
        GITHUB_REPOSITORY: 'acme/docs',
        GITHUB_API_URL: forge.url,
        GITHUB_TOKEN: 'ci-token',
      };
      const upload = JSON.parse((await run(wharf, ['upload', folder, '--json'], { cwd: outside, env })).stdout);
      const preview = upload.branches[0];
      expect(preview.name).toBe('pr-12');
      expect(forge.statuses[0]?.body).toMatchObject({ state: 'success', context: 'wharf', target_url: preview.url });
      const deleted = JSON.parse(
        (await run(wharf, ['branch', 'delete', 'pr-12', '--json'], { cwd: outside, env })).stdout,
      );
      expect(deleted).toMatchObject({ ok: true, deleted: { name: 'pr-12' } });
      const status = JSON.parse((await run(wharf, ['status', '--json'], { cwd: outside, env })).stdout);
      expect(status.branches.map((branch: { name: string }) => branch.name)).not.toContain('pr-12');
    } finally {
      await forge.close();
    }
  });
});
