import type { BuildSettings } from '../../../config/types.ts';
import { qualifiedImage } from '../buildSettings.ts';
import type { BuildLog } from './buildLog.ts';
import { runLogged, runQuietly } from './processes.ts';

/** Where a build's container sees its checkout and its site's cache. */
export const WORKSPACE = '/workspace';
export const CACHE = '/cache';
/** The user a build runs as: not root, and the `node` user of the usual Node.js images. */
const BUILD_USER = '1000:1000';

/** Where package managers keep what they download, in the site's cache. */
const CACHE_VARIABLES = {
  HOME: `${CACHE}/home`,
  npm_config_cache: `${CACHE}/npm`,
  YARN_CACHE_FOLDER: `${CACHE}/yarn`,
  pnpm_config_store_dir: `${CACHE}/pnpm`,
  CI: 'true',
};

/** What the runtime's own process may read of Wharf's environment: how to reach its engine, nothing of Wharf's. */
const RUNTIME_VARIABLES = [
  'PATH',
  'HOME',
  'XDG_RUNTIME_DIR',
  'TMPDIR',
  'CONTAINER_HOST',
  'DOCKER_HOST',
  'DOCKER_CONFIG',
];

export interface ContainerStep {
  settings: BuildSettings;
  /** Unique on the machine: how the container is stopped when the build is cancelled. */
  name: string;
  image: string;
  /** Host folders mounted as the workspace (the checkout) and the cache. */
  workspace: string;
  cache: string;
  /** The folder the command runs in, relative to the checkout (the base directory). */
  directory: string;
  /** A shell command line, as the site's settings give it. */
  command: string;
  /** The site's variables for this build: given by name, their values never on a command line. */
  variables: Record<string, string>;
  log: BuildLog;
  signal: AbortSignal;
}

function runtimeEnvironment(variables: Record<string, string>): NodeJS.ProcessEnv {
  const own = Object.fromEntries(
    RUNTIME_VARIABLES.flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : [])),
  );
  return { ...own, ...variables };
}

function networkOption(network: string) {
  // Podman's user-mode network reaches the internet but not the host's own loopback (Wharf).
  return network === 'slirp4netns' ? 'slirp4netns:allow_host_loopback=false' : network;
}

/** The runtime's arguments for one step: limits, no privileges, the two mounts, the variables by name. */
export function containerArguments(step: ContainerStep): string[] {
  const { settings } = step;
  const variables = { ...CACHE_VARIABLES, ...step.variables };
  return [
    'run',
    '--rm',
    '--name',
    step.name,
    `--pull=${settings.pull}`,
    '--user',
    BUILD_USER,
    `--cpus=${settings.cpus}`,
    `--memory=${settings.memory}`,
    `--memory-swap=${settings.memory}`,
    `--pids-limit=${settings.pids}`,
    `--network=${networkOption(settings.network)}`,
    '--security-opt=no-new-privileges',
    '--cap-drop=ALL',
    '--volume',
    `${step.workspace}:${WORKSPACE}`,
    '--volume',
    `${step.cache}:${CACHE}`,
    '--workdir',
    step.directory ? `${WORKSPACE}/${step.directory}` : WORKSPACE,
    ...Object.keys(variables).flatMap((name) => ['--env', name]),
    '--entrypoint',
    '/bin/sh',
    qualifiedImage(step.image),
    '-c',
    // Files the build makes stay removable and readable by Wharf, whichever user the runtime maps it to.
    `umask 0000 && ${step.command}`,
  ];
}

/**
 * Runs one command of a build in a container of its own, answering its exit code. Cancelling the
 * build removes the container at once (stopping the runtime's client alone would leave it running).
 */
export async function runInContainer(step: ContainerStep): Promise<number | null> {
  const env = runtimeEnvironment({ ...CACHE_VARIABLES, ...step.variables });
  // Podman's `rm --force` would first wait ten seconds for the build to stop by itself; Docker's kills at once.
  const podman = !step.settings.runtime.endsWith('docker');
  let removal: Promise<unknown> = Promise.resolve();
  const stop = () => {
    const args = ['rm', '--force', ...(podman ? ['--time', '0'] : []), step.name];
    removal = runQuietly(step.settings.runtime, args, env).catch(() => {});
  };
  step.signal.addEventListener('abort', stop, { once: true });
  try {
    return await runLogged(step.settings.runtime, containerArguments(step), {
      env,
      log: step.log,
      signal: step.signal,
    });
  } finally {
    step.signal.removeEventListener('abort', stop);
    // The build ends once its container is gone.
    await removal;
  }
}
