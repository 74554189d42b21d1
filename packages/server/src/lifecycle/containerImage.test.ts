import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, signedIn, type TestClient } from '../../test/client.ts';
import { answers, DEPLOY, singleNodeForPodman } from '../../test/deployFiles.ts';
import { freePort, testPasswordHash } from '../../test/harness.ts';
import { buildImage, COMPOSE_PODMAN, healthCheck, OFF_HOST_NETWORK, podman, podmanWorks } from '../../test/podman.ts';
import { siteRequest } from '../../test/siteClient.ts';
import { SQLITE_FILE } from '../db/connection.ts';

const run = promisify(execFile);
const works = podmanWorks();
if (!works) console.warn('!! The container image suite needs podman (apt-get install podman runc): SKIPPED');
const hasKubectl = answers('kubectl', 'version', '--client');
if (works && !hasKubectl) console.warn('!! Running the Kubernetes manifests under podman needs kubectl: SKIPPED');

/** Waits for a Wharf started by podman to answer /readyz with 200; fails with its log after a minute. */
async function untilReady(url: string, logs: () => Promise<string>) {
  const startedAt = performance.now();
  for (;;) {
    if ((await fetch(`${url}/readyz`).catch(() => null))?.status === 200) return performance.now() - startedAt;
    if (performance.now() - startedAt > 60_000) throw new Error(`not ready in 60 s: ${await logs()}`);
    await sleep(100);
  }
}

/** The image's own limit: what a self-hoster pulls should stay small. */
const IMAGE_LIMIT_BYTES = 250 * 1000 * 1000;

/**
 * The container image as a self-hoster runs it: built from the repository's Containerfile by
 * podman, started with a read-only root file system and a volume for /data, signed in to, deployed
 * to with the CLI fetched from the running Wharf itself, serving the site; then stopped while a
 * download is under way, which it finishes before it exits.
 */
describe.skipIf(!works)('the container image', () => {
  const tag = `localhost/wharf-test:${process.pid}`;
  const name = `wharf-test-${process.pid}`;
  const volume = `wharf-test-data-${process.pid}`;
  let port: number;
  let url: string;
  let scratch: string;
  let owner: TestClient;
  let siteId: string;
  let token: string;
  let host: string;
  const big = randomBytes(48 * 1024 * 1024);

  beforeAll(async () => {
    scratch = await mkdtemp(path.join(os.tmpdir(), 'wharf-image-'));
    const builtAt = performance.now();
    await buildImage(tag);
    console.info(`image built in ${Math.round((performance.now() - builtAt) / 1000)} s`);
    port = await freePort();
    url = `http://127.0.0.1:${port}`;
    // The host's network, on a loopback port: it adds no interface (a bridge's would disturb a
    // browser beside it, see OFF_HOST_NETWORK), and no port forwarder sits between the test's
    // clients and Wharf. slirp4netns's forwarder, on a busy machine, dropped a download held
    // during the drain while Wharf was still serving it (ci39, ci40: the container logged no cut).
    await podman(
      'run',
      '--detach',
      '--network',
      'host',
      '--name',
      name,
      '--read-only',
      '--stop-timeout',
      '30',
      '--env',
      'HOST=127.0.0.1',
      '--env',
      `PORT=${port}`,
      '--volume',
      `${volume}:/data`,
      '--env',
      `WHARF_USERS=owner:${await testPasswordHash()}`,
      '--env',
      `WHARF_URL=${url}`,
      '--env',
      `WHARF_SITES_URL=http://localhost:${port}`,
      '--env',
      'WHARF_WORKERS=2',
      '--env',
      'WHARF_SHUTDOWN_GRACE_SECONDS=20',
      tag,
    );
    const readyAfter = await untilReady(url, () => podman('logs', name));
    console.info(`container ready ${Math.round(readyAfter)} ms after podman run`);
  }, 30 * 60_000);
  afterAll(async () => {
    await podman('rm', '--force', '--ignore', name).catch(() => undefined);
    await podman('volume', 'rm', '--force', volume).catch(() => undefined);
    await podman('rmi', '--force', tag).catch(() => undefined);
    // The build stages of runs older than a day (1.4 GB each): never those of a build running
    // beside this one (two suites side by side), whose cache they are.
    await podman('image', 'prune', '--force', '--filter', 'until=24h').catch(() => undefined);
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('is small, runs as a user without privileges, and reports itself healthy', async () => {
    const size = Number(await podman('image', 'inspect', '--format', '{{.Size}}', tag));
    console.info(`image size ${Math.round(size / 1e6)} MB`);
    expect(size).toBeLessThan(IMAGE_LIMIT_BYTES);
    expect(await podman('exec', name, '/usr/local/bin/node', '-p', 'process.getuid()')).toBe('65532');
    await healthCheck(name);
    // Three podman commands, each a process that starts runc: over 30 s on a machine running two suites.
  }, 120_000);

  it('takes a sign-in and a deploy with the CLI it serves itself, and serves the site', async () => {
    owner = await signedIn(url, 'owner');
    const org = expectStatus(await owner.post('/api/v1/orgs', { name: 'Acme' }), 200);
    const team = expectStatus(await owner.post(`/api/v1/orgs/${org._id}/teams`, { name: 'Web' }), 200);
    const site = expectStatus(await owner.post(`/api/v1/teams/${team._id}/sites`, { name: 'boxed' }), 200);
    siteId = site._id;
    host = `${site.name}.localhost:${port}`;
    token = expectStatus(await owner.post(`/api/v1/sites/${siteId}/tokens`, { name: 'ci' }), 200).value;
    const folder = path.join(scratch, 'site');
    await mkdir(folder);
    await writeFile(path.join(folder, 'index.html'), '<h1>from a container</h1>');
    await writeFile(path.join(folder, 'big.bin'), big);
    // As a CI job runs it: npx fetches the CLI from this Wharf, nothing from a registry.
    const home = path.join(scratch, 'home');
    await mkdir(home);
    const { stdout } = await run(
      'npx',
      ['--yes', `${url}/cli/wharf-cli.tgz`, 'upload', folder, '--url', url, '--site', siteId, '--token', token],
      {
        env: {
          PATH: process.env.PATH,
          HOME: home,
          npm_config_cache: path.join(home, 'cache'),
          NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS ?? '',
        },
        timeout: 120_000,
      },
    );
    expect(stdout).toContain('main');
    expect((await siteRequest(port, host, '/')).text).toBe('<h1>from a container</h1>');
  }, 180_000);

  it('finishes a download under way when stopped, then exits cleanly', async () => {
    let received = 0;
    let resume!: () => void;
    const download = new Promise<{ status: number; bytes: number }>((resolve, reject) => {
      const request = http.get(
        { host: '127.0.0.1', port, path: '/big.bin', headers: { host }, agent: false },
        (res) => {
          res.once('data', () => {
            res.pause();
            resume = () => res.resume();
          });
          let tailHeld = false;
          res.on('data', (chunk: Buffer) => {
            received += chunk.length;
            // The last 2 MB wait 2.5 s in buffers outside the server (the kernel's, the port
            // forwarder's), the server's answer long finished: a server that exited then would
            // take them with its container's network.
            if (!tailHeld && received >= big.length - 2 * 1024 * 1024) {
              tailHeld = true;
              res.pause();
              setTimeout(() => res.resume(), 2_500);
            }
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes: received }));
          res.on('error', reject);
        },
      );
      request.on('error', reject);
    });
    await expect.poll(() => received, { timeout: 10_000 }).toBeGreaterThan(0);
    const stopping = podman('stop', '--time', '30', name);
    // The stop reaches the server while the download is held: it waits for it, a few seconds here.
    await sleep(3_000);
    resume();
    // A failure carries what the container said while it stopped (the drain's and the workers' lines).
    const got = await download.catch(async (error: Error) => {
      throw new Error(
        `${error.message} after ${received} of ${big.length} bytes; the container's log:\n${await podman('logs', name).catch(String)}`,
      );
    });
    expect(got).toEqual({ status: 200, bytes: big.length });
    await stopping;
    expect(await podman('inspect', '--format', '{{.State.ExitCode}}', name)).toBe('0');
    expect(await podman('logs', name)).toMatch(/stopp|drain/i);
  }, 120_000);

  it('runs as deploy/compose.yaml describes it under podman-compose, and goes with its volume on down', async () => {
    if (!answers('podman-compose', 'version'))
      throw new Error('podman-compose is missing: this test runs deploy/compose.yaml. apt-get install podman-compose');
    // The file alone, in a folder of its own: no .env of the developer's beside it.
    const folder = path.join(scratch, 'compose');
    await mkdir(folder);
    const file = path.join(folder, 'compose.yaml');
    await copyFile(path.join(DEPLOY, 'compose.yaml'), file);
    const project = `wharf-test-compose-${process.pid}`;
    const composedPort = await freePort();
    const composedUrl = `http://127.0.0.1:${composedPort}`;
    const users = `owner:${await testPasswordHash()}`;
    const compose = (...args: string[]) =>
      run('podman-compose', ['--podman-path', COMPOSE_PODMAN, '--project-name', project, '--file', file, ...args], {
        env: {
          PATH: process.env.PATH,
          WHARF_IMAGE: tag,
          WHARF_HOST_PORT: String(composedPort),
          WHARF_URL: composedUrl,
          WHARF_USERS: users,
        },
        timeout: 5 * 60_000,
      });
    const container = `${project}_wharf_1`;
    try {
      await compose('up', '--detach', '--no-build');
      await untilReady(composedUrl, () => podman('logs', container));
      const composedOwner = await signedIn(composedUrl, 'owner');
      expectStatus(await composedOwner.post('/api/v1/orgs', { name: 'Composed' }), 200);
      const settings = '{{.HostConfig.ReadonlyRootfs}} {{.HostConfig.RestartPolicy.Name}} {{.Config.User}}';
      expect(await podman('inspect', '--format', settings, container)).toBe('true unless-stopped 65532:65532');
      await healthCheck(container);
    } finally {
      await compose('down', '--volumes');
    }
    expect(await podman('ps', '--all', '--quiet', '--filter', `name=${project}`)).toBe('');
    expect(await podman('volume', 'ls', '--quiet', '--filter', `label=io.podman.compose.project=${project}`)).toBe('');
  }, 300_000);

  it.runIf(hasKubectl)(
    'runs as the single-node Kubernetes manifests describe it under podman kube play',
    async () => {
      const playedPort = await freePort();
      const playedUrl = `http://127.0.0.1:${playedPort}`;
      const played = await singleNodeForPodman({
        image: tag,
        port: playedPort,
        suffix: `-test-${process.pid}`,
        settings: { WHARF_URL: playedUrl, WHARF_USERS: `owner:${await testPasswordHash()}` },
      });
      try {
        await podman('kube', 'play', ...OFF_HOST_NETWORK, played.file);
        await untilReady(playedUrl, () => podman('logs', played.container));
        const playedOwner = await signedIn(playedUrl, 'owner');
        expectStatus(await playedOwner.post('/api/v1/orgs', { name: 'Played' }), 200);
        const settings = '{{.HostConfig.ReadonlyRootfs}} {{.Config.User}} {{.EffectiveCaps}}';
        expect(await podman('inspect', '--format', settings, played.container)).toBe('true 65532:65532 []');
        // The database is on the claim's volume: the pod keeps nothing of its own.
        const data = await podman('exec', played.container, '/usr/local/bin/node', '-p', 'fs.readdirSync("/data")');
        expect(data).toContain(SQLITE_FILE);
      } finally {
        await podman('kube', 'down', played.file).catch(() => undefined);
        await podman('volume', 'rm', '--force', played.volume).catch(() => undefined);
        await rm(played.folder, { recursive: true, force: true });
      }
    },
    300_000,
  );
});
