import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, signedIn } from '../../test/client.ts';
import { freePort, testPasswordHash } from '../../test/harness.ts';
import { exited, waitForApi } from '../../test/processes.ts';
import { siteRequest } from '../../test/siteClient.ts';
import { SERVER_PACKAGE_DIR } from '../packageDir.ts';

const run = promisify(execFile);
const REPOSITORY = path.join(SERVER_PACKAGE_DIR, '../..');
const UNIT_FILE = path.join(REPOSITORY, 'deploy/systemd/wharf@.service');
/** Where the unit expects the package; the test puts it in a folder of its own instead. */
const INSTALLED = '/opt/wharf';

/** The unit's command line, split as systemd splits it (no quoting in this unit). */
function unitCommand() {
  const line = readFileSync(UNIT_FILE, 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('ExecStart='));
  return line!.slice('ExecStart='.length).trim().split(/\s+/);
}

/** A child's output, kept for a failure's message. */
function collect(child: ReturnType<typeof spawn>) {
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk));
  return () => output;
}

/**
 * Wharf installed as a bare machine and the systemd unit install it, with no repository: the
 * release package (`npm run release`) unpacked, its production dependencies installed by
 * `npm ci --omit=dev`, started by the unit's own command line; a deploy through the CLI that
 * installation serves, and a clean stop.
 */
describe('the release package', () => {
  let scratch: string;
  let installed: string;

  beforeAll(async () => {
    scratch = await mkdtemp(path.join(os.tmpdir(), 'wharf-release-'));
    await run(process.execPath, [path.join(REPOSITORY, 'scripts/release.mjs')], {
      cwd: REPOSITORY,
      timeout: 15 * 60_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    const tarball = (await readdir(path.join(REPOSITORY, 'dist'))).find((name) => /^wharf-server-.*\.tgz$/.test(name));
    installed = path.join(scratch, 'opt-wharf');
    await mkdir(installed);
    await run('tar', ['xzf', path.join(REPOSITORY, 'dist', tarball!), '-C', installed, '--strip-components=1']);
    // What `npm ci --omit=dev` installs on the server; the machine's npm cache spares the downloads.
    await run('npm', ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'], {
      cwd: installed,
      timeout: 10 * 60_000,
    });
  }, 30 * 60_000);
  afterAll(async () => {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('holds no sources, no development dependencies and no repository', async () => {
    const top = await readdir(installed);
    expect(top).toEqual(expect.arrayContaining(['dist', 'console', 'cli', 'bin', 'package.json', 'node_modules']));
    expect(top).not.toContain('packages');
    const dependencies = await readdir(path.join(installed, 'node_modules'));
    for (const development of ['vitest', 'typescript', 'esbuild', 'vite', '@biomejs'])
      expect(dependencies).not.toContain(development);
  });

  it("runs by the systemd unit's command line, takes a deploy with the CLI it serves, and stops cleanly", async () => {
    const [node, ...args] = unitCommand();
    expect(node).toBe('/usr/bin/node');
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const dataDir = path.join(scratch, 'var-lib-wharf-main');
    await mkdir(dataDir);
    // This machine's Node in place of Debian's, the test's folder in place of /opt/wharf.
    const wharf = spawn(
      process.execPath,
      args.map((arg) => arg.replace(INSTALLED, installed)),
      {
        cwd: dataDir,
        env: {
          PATH: process.env.PATH,
          PORT: String(port),
          HOST: '127.0.0.1',
          WHARF_URL: url,
          WHARF_SITES_URL: `http://localhost:${port}`,
          WHARF_DATA_DIR: dataDir,
          WHARF_USERS: `owner:${await testPasswordHash()}`,
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const output = collect(wharf);
    try {
      await waitForApi(url).catch((error) => {
        throw new Error(`${error.message}: ${output()}`);
      });
      const owner = await signedIn(url, 'owner');
      const org = expectStatus(await owner.post('/api/v1/orgs', { name: 'Acme' }), 200);
      const team = expectStatus(await owner.post(`/api/v1/orgs/${org._id}/teams`, { name: 'Web' }), 200);
      const site = expectStatus(await owner.post(`/api/v1/teams/${team._id}/sites`, { name: 'unpacked' }), 200);
      const token = expectStatus(await owner.post(`/api/v1/sites/${site._id}/tokens`, { name: 'ci' }), 200).value;
      const folder = path.join(scratch, 'site');
      await mkdir(folder);
      await writeFile(path.join(folder, 'index.html'), '<h1>from the release package</h1>');
      // The one-file CLI the installation serves, as a machine without npm would run it.
      const cli = path.join(scratch, 'wharf.mjs');
      await writeFile(cli, Buffer.from(await (await fetch(`${url}/cli/wharf.mjs`)).arrayBuffer()));
      const { stdout } = await run(process.execPath, [
        cli,
        'upload',
        folder,
        '--url',
        url,
        '--site',
        site._id,
        '--token',
        token,
      ]);
      expect(stdout).toContain('main');
      expect((await siteRequest(port, `unpacked.localhost:${port}`, '/')).text).toBe(
        '<h1>from the release package</h1>',
      );
      // What the console links for the API's documentation comes from a package found by its path.
      expect((await fetch(`${url}/api/docs/`)).status).toBe(200);
    } finally {
      wharf.kill('SIGTERM');
    }
    expect(await exited(wharf), output()).toBe(0);
  }, 120_000);
});
