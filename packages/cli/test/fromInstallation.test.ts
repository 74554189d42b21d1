import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { uploadCommandOf, uploadWithNodeOf } from '@wharf/contract';
import { freePort, siteRequest } from '@wharf/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUploadWorld, type UploadWorld } from './uploadWorld.ts';

const run = promisify(execFile);
/** What a CI runner has: Node, npm and the system's tools, none of this repository. */
const SYSTEM_PATH = [path.dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':');

describe('the upload commands the console prints, run as printed outside the repository', () => {
  let world: UploadWorld;
  let outside: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    world = await startUploadWorld();
    outside = await mkdtemp(path.join(os.tmpdir(), 'wharf-ci-job-'));
    env = {
      PATH: SYSTEM_PATH,
      HOME: outside,
      // An empty npm cache, and a registry nobody answers on: the CLI can only come from the installation.
      npm_config_cache: path.join(outside, 'npm-cache'),
      npm_config_registry: `http://127.0.0.1:${await freePort()}/`,
      npm_config_fetch_retries: '0',
      npm_config_update_notifier: 'false',
    };
  });
  afterAll(async () => {
    await world?.server.close();
    if (outside) await rm(outside, { recursive: true, force: true });
  });

  /** Runs a printed command in a CI job's folder whose `./dist` holds this page, as a shell would. */
  async function runInJob(command: string, page: string) {
    const job = await mkdtemp(path.join(outside, 'job-'));
    await mkdir(path.join(job, 'dist'));
    await writeFile(path.join(job, 'dist', 'index.html'), page);
    return run('/bin/sh', ['-c', command], { cwd: job, env, timeout: 90_000 });
  }

  async function servedPage() {
    const port = Number(new URL(world.server.url).port);
    const host = `${world.siteName}.localhost:${port}`;
    return (await siteRequest(port, host, '/')).text;
  }

  it('npx --yes {WHARF_URL}/cli/wharf-cli.tgz upload …: npm fetches the package from the installation', async () => {
    const command = uploadCommandOf(world.server.url, world.siteId, world.siteToken);
    expect(command).toMatch(/^npx --yes http:\/\/127\.0\.0\.1:\d+\/cli\/wharf-cli\.tgz upload \.\/dist --url /);
    const { stdout } = await runInJob(command, '<h1>Uploaded with npx</h1>');
    expect(stdout).toContain('main');
    expect(await servedPage()).toBe('<h1>Uploaded with npx</h1>');
  }, 120_000);

  it('curl -fsSLO {WHARF_URL}/cli/wharf.mjs && node wharf.mjs upload …: the single file needs nothing else', async () => {
    const command = uploadWithNodeOf(world.server.url, world.siteId, world.siteToken);
    await runInJob(command, '<h1>Uploaded with node</h1>');
    expect(await servedPage()).toBe('<h1>Uploaded with node</h1>');
  }, 120_000);
});
