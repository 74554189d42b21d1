import { execFile, spawnSync } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const REPOSITORY = path.resolve(import.meta.dirname, '../../..');

/** Whether podman runs containers here (installed, and its runtime too): the image suite needs it. */
export function podmanWorks() {
  return spawnSync('podman', ['info'], { stdio: 'ignore' }).status === 0;
}

/** Runs podman; answers its output. Long builds get the time they need. */
export async function podman(...args: string[]) {
  const { stdout } = await run('podman', args, { maxBuffer: 64 * 1024 * 1024, timeout: 20 * 60_000 });
  return stdout.trim();
}

/**
 * Builds the repository's Containerfile as `tag`, from base images made locally when this machine
 * reaches no registry (deploy/container/make-base-images.sh), never pulled. The roots this
 * process trusts (NODE_EXTRA_CA_CERTS: a proxy that intercepts TLS) go to npm as the build secret
 * the Containerfile reads. Docker's format: OCI images carry no HEALTHCHECK.
 */
export async function buildImage(tag: string) {
  await run('bash', [path.join(REPOSITORY, 'deploy/container/make-base-images.sh')], { timeout: 20 * 60_000 });
  const roots = process.env.NODE_EXTRA_CA_CERTS;
  await podman(
    'build',
    '--pull=never',
    '--format=docker',
    ...(roots ? ['--secret', `id=ca,src=${roots}`] : []),
    '-t',
    tag,
    REPOSITORY,
  );
}
