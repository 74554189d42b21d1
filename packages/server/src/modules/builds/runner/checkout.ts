import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { isIPv4, isIPv6 } from 'node:net';
import path from 'node:path';
import { rootCertificates } from 'node:tls';
import type { BuildLog } from './buildLog.ts';
import { runLogged, runQuietly } from './processes.ts';
import { repositoryHost } from './repositoryAddress.ts';
import { BuildStepFailed } from './stepFailed.ts';

export interface CheckoutRequest {
  url: string;
  /** The addresses the repository's host was checked at (`mustReachRepository`): git connects to these alone. */
  addresses: readonly string[];
  gitBranch: string;
  /** The exact commit to build; without it, the branch's head now. */
  commit?: string;
  /** What to fetch, when not the branch: a pull request's head (`refs/pull/7/head`). */
  ref?: string;
  /** The deploy key's private half, in OpenSSH's format. */
  deployKey: string;
  /** The SSH host's keys an earlier clone learnt (known_hosts lines): the host must show one of them. */
  knownHosts: string | null;
  /** CA certificates to trust besides the usual roots (`WHARF_EXTRA_CA_CERTS`). */
  extraCaCerts: readonly string[];
  /** A folder of this build's own: the checkout goes to `repository/` in it. */
  workDir: string;
  log: BuildLog;
  signal: AbortSignal;
}

export interface CheckedOut {
  dir: string;
  commit: string;
  author: string;
  message: string;
  /** The SSH host's keys as known after the clone ('' over HTTPS): what later clones insist on. */
  knownHosts: string;
}

/** The host and port a clone URL connects to, as ssh and curl name them. */
function endpointOf(url: string): { host: string; port: number; ssh: boolean } {
  if (!url.includes('://')) return { host: repositoryHost(url), port: 22, ssh: true };
  const parsed = new URL(url);
  const ssh = parsed.protocol === 'ssh:';
  return { host: repositoryHost(url), port: Number(parsed.port) || (ssh ? 22 : 443), ssh };
}

/**
 * Where git connects: the checked addresses, whatever the name resolves to by then. Over SSH one
 * of them (ssh takes a single HostName, and no longer tries each address as it would a name's: an
 * IPv4 one first, which every network routes), with the host's keys still known by its name (as
 * OpenSSH writes them, with the port when it is not 22); over HTTPS all of them, as curl's
 * `--resolve` takes them.
 */
function pinnedTo(request: CheckoutRequest): { ssh: string[]; config: Record<string, string> } {
  const { host, port, ssh } = endpointOf(request.url);
  const first = request.addresses.find((address) => isIPv4(address)) ?? request.addresses[0];
  if (!first) throw new BuildStepFailed(`The repository's host ${host} has no address`);
  if (ssh) {
    const alias = port === 22 ? host : `[${host}]:${port}`;
    return { ssh: [`-o HostName=${first}`, `-o HostKeyAlias=${alias}`], config: {} };
  }
  const listed = request.addresses.map((address) => (isIPv6(address) ? `[${address}]` : address)).join(',');
  return {
    ssh: [],
    config: {
      GIT_CONFIG_COUNT: '2',
      GIT_CONFIG_KEY_0: 'http.curloptResolve',
      GIT_CONFIG_VALUE_0: `${host}:${port}:${listed}`,
      // A redirect names a host nobody checked: the forge's own address must be the one saved.
      GIT_CONFIG_KEY_1: 'http.followRedirects',
      GIT_CONFIG_VALUE_1: 'false',
    },
  };
}

/**
 * Git's environment for a checkout that reads nothing of this machine's git or ssh settings and
 * runs nothing of the repository's: no system or user configuration (so no filter, hook or
 * credential helper), no prompt, only the https and ssh transports (never `file` or `ext`, also
 * for anything a fetch might follow), and ssh with the deploy key alone, no agent, and the host
 * key an earlier clone learnt, or, on the first, the one the host shows (trust on first use). It
 * connects to the addresses checked before (`pinnedTo`), and follows no redirect.
 */
async function gitEnvironment(request: CheckoutRequest, knownHosts: string): Promise<NodeJS.ProcessEnv> {
  const home = path.join(request.workDir, 'home');
  const sshDir = path.join(request.workDir, 'ssh');
  await mkdir(home, { recursive: true });
  await mkdir(sshDir, { recursive: true, mode: 0o700 });
  const key = path.join(sshDir, 'deploy_key');
  await writeFile(key, request.deployKey.endsWith('\n') ? request.deployKey : `${request.deployKey}\n`, {
    mode: 0o600,
  });
  if (request.knownHosts) await writeFile(knownHosts, request.knownHosts, { mode: 0o600 });
  const pinned = pinnedTo(request);
  const roots = path.join(sshDir, 'roots.pem');
  await writeFile(roots, [...rootCertificates, ...request.extraCaCerts].join('\n'));
  const ssh = [
    'ssh',
    '-F /dev/null',
    `-i ${key}`,
    '-o IdentitiesOnly=yes',
    '-o IdentityAgent=none',
    '-o BatchMode=yes',
    `-o StrictHostKeyChecking=${request.knownHosts ? 'yes' : 'accept-new'}`,
    `-o UserKnownHostsFile=${knownHosts}`,
    ...pinned.ssh,
  ].join(' ');
  return {
    PATH: process.env.PATH,
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: 'true',
    GIT_ALLOW_PROTOCOL: 'https:ssh',
    GIT_LFS_SKIP_SMUDGE: '1',
    GIT_SSL_CAINFO: roots,
    GIT_SSH_COMMAND: ssh,
    LANG: 'C.UTF-8',
    ...pinned.config,
  };
}

/**
 * Fetches one commit of the repository (shallow: that commit alone) and checks it out. Only
 * git runs here, on the host, and it runs nothing the repository holds; everything of the build
 * itself runs in its container. A named commit that is no longer the branch's head is fetched by
 * its id, which forges allow.
 */
export async function checkOut(request: CheckoutRequest): Promise<CheckedOut> {
  const knownHosts = path.join(request.workDir, 'ssh', 'known_hosts');
  const env = await gitEnvironment(request, knownHosts);
  const dir = path.join(request.workDir, 'repository');
  const git = (args: string[]) => runLogged('git', args, { cwd: dir, env, log: request.log, signal: request.signal });
  await mkdir(dir, { recursive: true });
  if ((await git(['init', '--quiet'])) !== 0) throw new BuildStepFailed('git init failed');
  const fetch = (what: string) =>
    git(['fetch', '--depth=1', '--no-tags', '--no-recurse-submodules', '--progress', '--', request.url, what]);
  const ref = request.ref ?? `refs/heads/${request.gitBranch}`;
  if ((await fetch(ref)) !== 0) {
    const what = request.ref ? `${request.ref}` : `the branch ${request.gitBranch}`;
    // ssh says in the log when the host's key is not the one learnt before.
    const pinned = request.knownHosts ? ': see the log (the host must show the SSH key the first clone learnt)' : '';
    throw new BuildStepFailed(`Could not fetch ${what} of ${request.url}${pinned}`);
  }
  let head = (await runQuietly('git', ['rev-parse', 'FETCH_HEAD'], env, dir)).trim();
  if (request.commit && !head.startsWith(request.commit)) {
    if ((await fetch(request.commit)) !== 0)
      throw new BuildStepFailed(
        `The commit ${request.commit} is not the head of ${request.gitBranch} any more, and could not be fetched by its id`,
      );
    head = (await runQuietly('git', ['rev-parse', 'FETCH_HEAD'], env, dir)).trim();
  }
  if ((await git(['-c', 'advice.detachedHead=false', 'checkout', '--quiet', head])) !== 0)
    throw new BuildStepFailed(`Could not check out ${head}`);
  const described = await runQuietly('git', ['log', '-1', '--format=%an <%ae>%x00%B', head], env, dir);
  const [author = '', message = ''] = described.split('\0');
  const learnt = await readFile(knownHosts, 'utf8').catch(() => '');
  return { dir, commit: head, author, message: message.trim(), knownHosts: learnt };
}
