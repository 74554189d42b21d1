import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteRequest } from '../../server/test/siteClient.ts';
import { siteFolder } from './siteFolder.ts';
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
});
