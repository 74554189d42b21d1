import { execFile, spawnSync } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const REPOSITORY = path.resolve(import.meta.dirname, '../../..');

/** Whether podman runs containers here (installed, and its runtime too): the image suite needs it. */
export function podmanWorks() {
  return spawnSync('podman', ['info'], { stdio: 'ignore' }).status === 0;
}

/**
 * How the tests' containers reach the network without touching this machine's: podman's default
 * bridge adds an interface and an address each time, which the browsers of journeys running
 * beside them take for a network change (net::ERR_NETWORK_CHANGED, ci22). Builds use the machine's
 * network itself (nothing is added); containers slirp4netns, user-mode networking that publishes
 * ports all the same; podman-compose goes through a podman that does so (see the script).
 */
export const OFF_HOST_NETWORK = ['--network', 'slirp4netns'];
export const COMPOSE_PODMAN = path.join(import.meta.dirname, 'podmanOffHostNetwork.sh');

/** Runs podman; answers its output. Long builds get the time they need. */
export async function podman(...args: string[]) {
  const { stdout } = await run('podman', args, { maxBuffer: 64 * 1024 * 1024, timeout: 20 * 60_000 });
  return stdout.trim();
}

/**
 * Runs a container's health check once; when it fails, says why with the check's recent log
 * (its output and exit codes), which `podman healthcheck run` alone does not print.
 */
export async function healthCheck(container: string) {
  try {
    await podman('healthcheck', 'run', container);
  } catch (error) {
    const log = await podman('inspect', '--format', '{{json .State.Health}}', container).catch((e) => String(e));
    throw new Error(`the health check of ${container} failed: ${String(error)}\nits log: ${log}`);
  }
}

/** The Debian image with Node.js 24 the base images script makes: what the tests' builds run in. */
export const NODE_IMAGE = 'docker.io/library/node:24-bookworm';

/**
 * Makes the base images (deploy/container/make-base-images.sh) unless they exist; the script lets
 * one caller at a time make them (the image suite, the builds suite and CI's install).
 */
export async function makeBaseImages() {
  await run('bash', [path.join(REPOSITORY, 'deploy/container/make-base-images.sh')], { timeout: 20 * 60_000 });
}

/**
 * Builds the repository's Containerfile as `tag`, from base images made locally when this machine
 * reaches no registry (deploy/container/make-base-images.sh), never pulled. The roots this
 * process trusts (NODE_EXTRA_CA_CERTS: a proxy that intercepts TLS) go to npm as the build secret
 * the Containerfile reads. Docker's format: OCI images carry no HEALTHCHECK.
 */
export async function buildImage(tag: string) {
  await makeBaseImages();
  const roots = process.env.NODE_EXTRA_CA_CERTS;
  await podman(
    'build',
    '--pull=never',
    '--network=host',
    '--format=docker',
    ...(roots ? ['--secret', `id=ca,src=${roots}`] : []),
    '-t',
    tag,
    REPOSITORY,
  );
}
